import { describe, expectTypeOf, it } from 'vitest';
import type { Session } from '../../../generated/developer/types.gen.js';
import type { AnonymousProfile } from '../../../generated/profiles/types.gen.js';
import type { HandlerMap } from '../../../src/platform/pipeline/handlerTypes.js';
import type { Writes } from '../../../src/platform/answers/headers.js';
import type { AdmitStep, Presenter } from '../../../src/platform/pipeline/service.js';
import type { RateLimitHeader } from '../../../src/platform/security/limits.js';
import type { DeveloperHandlers } from '../../../src/services/developer/operations.js';
import type {
  ProfilesDefinition,
  ProfilesHandlers,
  ProfilesPolicies,
  ProfilesPrincipal,
} from '../../../src/services/profiles/operations.js';

/**
 * A handler's answer carries the headers the contract requires on its status
 * (`contract.gen.ts`, from `npm run generate`), except those its operation's
 * policy writes (an admit step's rate limits, a presenter's `ETag`), and the
 * policy table must hold the steps that write them. vitest's type check (in
 * `npm test`) fails if an `@ts-expect-error` below stops being an error.
 */
const profile = {} as AnonymousProfile;
const session = {} as Session;

describe('a handler answer', () => {
  it('must carry each header the contract requires on its status that no policy writes', () => {
    // getProfileById's 200 requires X-RateLimit-*, ETag and Cache-Control: the admit step and presenter write the first four.
    const cached: ProfilesHandlers['getProfileById'] = () => ({
      status: 200,
      body: profile,
      headers: { 'Cache-Control': 'max-age=300' },
    });
    // @ts-expect-error no Cache-Control: the 200 of getProfileById requires it, and no policy writes it
    const uncached: ProfilesHandlers['getProfileById'] = () => ({ status: 200, body: profile });
    // @ts-expect-error a redirect of getAvatar without its required Location
    const nowhere: ProfilesHandlers['getAvatar'] = () => ({
      status: 302,
      body: undefined,
      headers: { 'Cache-Control': 'max-age=300' },
    });
    const redirect: ProfilesHandlers['getAvatar'] = () => ({
      status: 302,
      body: undefined,
      headers: { 'Cache-Control': 'max-age=300', Location: '/x' },
    });
    // @ts-expect-error logIn's 200 requires Set-Cookie (the session)
    const cookieless: DeveloperHandlers['logIn'] = async () => ({ status: 200, body: session });
    const loggedIn: DeveloperHandlers['logIn'] = async () => ({
      status: 200,
      body: session,
      headers: { 'Set-Cookie': 'session=x' },
    });
    // Headers the contract does not declare on the status (the media type) may come too.
    const typed: ProfilesHandlers['getAvatar'] = () => ({
      status: 200,
      body: Buffer.alloc(0),
      headers: { 'Content-Type': 'image/png', ETag: '"e"', 'Cache-Control': 'max-age=1' },
    });
    void [cached, uncached, nowhere, redirect, cookieless, loggedIn, typed];
  });

  it('must carry Retry-After on a 429 or 503 it answers where the contract requires it', () => {
    type Ops = {
      getBusy: {
        data: { query?: never };
        responses: { 200: { ok: boolean }; 429: { error: string }; 503: { error: string } };
        headers: { 429: { 'Retry-After': string; 'X-RateLimit-Limit'?: string }; 503: { 'Retry-After': string } };
      };
    };
    type Busy = HandlerMap<Ops, unknown>['getBusy'];
    const waits: Busy = () => ({ status: 503, body: { error: 'busy' }, headers: { 'Retry-After': '2' } });
    // @ts-expect-error a 503 without the Retry-After the contract requires on it
    const noWait: Busy = () => ({ status: 503, body: { error: 'busy' } });
    // @ts-expect-error an optional header does not stand in for a required one
    const limitOnly: Busy = () => ({
      status: 429,
      body: { error: 'slow down' },
      headers: { 'X-RateLimit-Limit': '10' },
    });
    const ok: Busy = () => ({ status: 200, body: { ok: true } });
    void [waits, noWait, limitOnly, ok];
  });
});

describe('a policy table', () => {
  const limit = {} as AdmitStep<ProfilesPrincipal> & Writes<RateLimitHeader>;
  const withETag = {} as Presenter & Writes<'ETag'>;
  const plainStep: AdmitStep<ProfilesPrincipal> = () => {};
  const plainPresenter: Presenter = () => {};

  it('must hold the admit step and presenter that write what the handlers leave out', () => {
    const complete: ProfilesPolicies = {
      getProfileById: { admit: limit, present: withETag },
      getProfileInferredInterestsById: { admit: limit, present: withETag },
      getVerifiedAccountServices: { admit: limit, present: withETag },
      searchProfilesByVerifiedAccount: { admit: limit, present: withETag },
      getQrCodeBySha256Hash: { admit: limit, present: plainPresenter },
      getAvatar: { admit: limit, present: plainPresenter },
      getVerifiedAccountServiceIcon: { admit: limit, present: plainPresenter },
      getOpenApiDocument: { present: withETag },
      getProfile: { admit: limit },
      associatedEmail: { admit: limit },
    };
    // @ts-expect-error getProfileById's admit step writes no rate-limit headers, which its handler leaves out
    const unlimited: ProfilesPolicies = { ...complete, getProfileById: { admit: plainStep, present: withETag } };
    // @ts-expect-error getAvatar has no admit step at all: nothing would write its required X-RateLimit-* headers
    const noLimit: ProfilesPolicies = { ...complete, getAvatar: { present: plainPresenter } };
    // @ts-expect-error the document's presenter writes no ETag, which its 200 requires
    const untagged: ProfilesPolicies = { ...complete, getOpenApiDocument: { present: plainPresenter } };
    void [complete, unlimited, noLimit, untagged];
  });
});

describe('a service definition', () => {
  it('takes the typed handler map: one handler per operation of the contract, and no other', () => {
    type Handlers = ProfilesDefinition['handlers'];
    expectTypeOf<Handlers>().toEqualTypeOf<ProfilesHandlers>();
    const lookup = {} as ProfilesHandlers['getProfileById'];
    const avatar = {} as ProfilesHandlers['getAvatar'];
    const document = {} as ProfilesHandlers['getOpenApiDocument'];
    const others = {
      getProfileInferredInterestsById: {} as ProfilesHandlers['getProfileInferredInterestsById'],
      getVerifiedAccountServices: {} as ProfilesHandlers['getVerifiedAccountServices'],
      searchProfilesByVerifiedAccount: {} as ProfilesHandlers['searchProfilesByVerifiedAccount'],
      getQrCodeBySha256Hash: {} as ProfilesHandlers['getQrCodeBySha256Hash'],
      getVerifiedAccountServiceIcon: {} as ProfilesHandlers['getVerifiedAccountServiceIcon'],
      getProfile: {} as ProfilesHandlers['getProfile'],
      associatedEmail: {} as ProfilesHandlers['associatedEmail'],
    };
    const complete: Handlers = { getProfileById: lookup, getAvatar: avatar, getOpenApiDocument: document, ...others };
    // @ts-expect-error getAvatar, an operation of the contract, has no handler
    const missing: Handlers = { getProfileById: lookup, getOpenApiDocument: document, ...others };
    // @ts-expect-error updateProfile names no operation of the contract (the profile is read-only)
    const unknown: Handlers = { ...complete, updateProfile: lookup };
    void [complete, missing, unknown];
  });
});
