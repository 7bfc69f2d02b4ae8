// @store-independent
import { describe, expect, it } from 'vitest';
import { composeConfig, ConfigError } from '../../src/platform/config.js';

/** The platform reads its own settings and composes each listed module's beside them; it knows no module. */
describe('composeConfig', () => {
  const greeter = {
    name: 'greeter',
    settings: (env: NodeJS.ProcessEnv) => ({ greeter: { greeting: env.GREETING ?? 'hello' } }),
  };

  it("puts each module's settings under its key, beside the platform's", () => {
    const config = composeConfig({ GREETING: 'hi', PORT: '9090' }, [greeter, { name: 'silent' }]);
    expect(config.greeter).toEqual({ greeting: 'hi' });
    expect(config.port).toBe(9090);
  });

  it("passes a module's ConfigError on, naming its variable", () => {
    const strict = {
      name: 'strict',
      settings: (env: NodeJS.ProcessEnv) => {
        if (env.STRICT_LEVEL) throw new ConfigError(`STRICT_LEVEL must be unset, got "${env.STRICT_LEVEL}"`);
        return { strict: {} };
      },
    };
    expect(() => composeConfig({ STRICT_LEVEL: '2' }, [strict])).toThrow(
      new ConfigError('STRICT_LEVEL must be unset, got "2"'),
    );
  });

  it('refuses a key taken twice: by two modules, or by a module and the platform', () => {
    expect(() => composeConfig({}, [greeter, { ...greeter, name: 'twin' }])).toThrow(
      'twin: its settings key greeter is taken',
    );
    expect(() => composeConfig({}, [{ name: 'porter', settings: () => ({ port: 1 }) }])).toThrow(
      'porter: its settings key port is taken',
    );
  });
});
