// @store-independent
import { describe, expect, it } from 'vitest';
import { configFromEnv, SERVICES } from '../src/app.js';
import { selectServices } from '../src/platform/config.js';
import { startServer } from './support/server.js';

describe('the services an app serves', () => {
  const names = SERVICES.map((module) => module.name);

  it('are the modules src/app.ts lists: the configuration knows no service name', () => {
    expect(names).toEqual(['profiles', 'publishing', 'developer']);
    expect(configFromEnv({}).services).toBeUndefined();
    // Any name passes the configuration; the app checks it against its modules.
    expect(configFromEnv({ SERVICES: ' publishing , fourth ' }).services).toEqual(['publishing', 'fourth']);
  });

  it('are every module by default, or those SERVICES names, in the order the app lists them', () => {
    expect(selectServices(undefined, SERVICES).map((m) => m.name)).toEqual(names);
    expect(selectServices(['developer', 'profiles'], SERVICES).map((m) => m.name)).toEqual(['profiles', 'developer']);
    const fourth = [...SERVICES, { name: 'fourth' }];
    expect(selectServices(['fourth'], fourth).map((m) => m.name)).toEqual(['fourth']);
  });

  it('refuse a name no module has, naming the variable and the modules', async () => {
    expect(() => selectServices(['profiles', 'nope'], SERVICES)).toThrow(
      'SERVICES must list some of profiles, publishing, developer, got "profiles,nope"',
    );
    await expect(startServer({ SERVICES: 'nope' })).rejects.toThrow(/SERVICES must list some of profiles, publishing, developer/);
  });
});
