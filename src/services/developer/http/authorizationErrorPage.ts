/**
 * The page a person sees when an app's authorization request cannot go back
 * to the app (an unknown `client_id`, a `redirect_uri` the app did not
 * register, an expired request): the dashboard's header and style, what went
 * wrong in words, and the authorization server's error code for the app's
 * developer. Plain HTML without script: its policy lets it load only the
 * dashboard's style sheet and icon.
 */
export function authorizationErrorPage(error: { error: string; error_description?: string }): string {
  const explanation = EXPLANATIONS[error.error] ?? 'The app sent a request the server cannot answer.';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>Sign-in failed · Developer dashboard</title>
    <link rel="icon" href="/developers/icon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="/developers/app.css">
  </head>
  <body>
    <header class="site-header">
      <div class="wrap header-row">
        <a class="brand" href="/developers">
          <img src="/developers/icon.svg" alt="" width="28" height="28">
          <span>Developer dashboard</span>
        </a>
      </div>
    </header>
    <main id="main" class="wrap">
      <section class="card" id="authorization-error" aria-labelledby="authorization-error-title">
        <h1 id="authorization-error-title">This sign-in link does not work</h1>
        <div class="alert" role="alert">${escapeHtml(explanation)}</div>
        <p>Nothing was shared with the app. Go back to it and try again, or tell its developer.</p>
        <p class="hint">For the app's developer: <code id="authorization-error-code">${escapeHtml(error.error)}</code>${
          error.error_description ? `: ${escapeHtml(error.error_description)}` : ''
        }</p>
        <p><a class="button quiet" href="/developers">Go to the dashboard</a></p>
      </section>
    </main>
  </body>
</html>
`;
}

/** The policy of that page: no script at all, only this origin's style sheet and images. */
export const AUTHORIZATION_ERROR_PAGE_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** What an error means to the person who followed the link. */
const EXPLANATIONS: Record<string, string> = {
  invalid_redirect_uri:
    'The app asked to send you back to an address it has not registered, so the request was stopped.',
  invalid_client: 'The app that sent you here is not known to this server.',
  invalid_request: 'The app’s request is incomplete or malformed.',
  temporarily_unavailable: 'The server cannot answer right now. Try again in a moment.',
  rate_limited: 'Too many sign-in requests came from here. Try again later.',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
