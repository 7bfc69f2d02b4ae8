import type { Application, KeyIssued, Session } from '../../generated/developer/types.gen.js';
import { ApiFailure, dashboardApi } from './api.js';
import { fillOAuthSettings, keyLabel, linesOf, renderApplications } from './applications.js';
import { copyField } from './clipboard.js';
import { confirmAction } from './confirm.js';
import { byId } from './dom.js';
import { consentIdOf, renderAuthorizations, renderConsent } from './consent.js';
import { signUpNotice } from './notices.js';

/**
 * The developer dashboard page: log in or sign up, then list, create,
 * rotate, revoke and delete applications and keys, all through the
 * generated SDK. A new key is shown once, in a read-only field with a Copy
 * button, and is dropped from the page when dismissed.
 */
const api = dashboardApi(new URL('/developer/v1', window.location.origin).href);

const page = {
  main: byId('main'),
  status: byId('status'),
  error: byId('error'),
  loading: byId('loading'),
  signedOut: byId('signed-out'),
  signedIn: byId('signed-in'),
  account: byId('account'),
  accountEmail: byId('account-email'),
  logOut: byId<HTMLButtonElement>('log-out'),
  logInForm: byId<HTMLFormElement>('log-in-form'),
  signUpForm: byId<HTMLFormElement>('sign-up-form'),
  createForm: byId<HTMLFormElement>('create-form'),
  applications: byId('applications'),
  applicationsTitle: byId('applications-title'),
  noApplications: byId('no-applications'),
  newKey: byId('new-key'),
  newKeyApplication: byId('new-key-application'),
  newKeyValue: byId<HTMLInputElement>('new-key-value'),
  copyKey: byId<HTMLButtonElement>('copy-key'),
  dismissKey: byId<HTMLButtonElement>('dismiss-key'),
  forgotForm: byId<HTMLFormElement>('forgot-form'),
  resetForm: byId<HTMLFormElement>('reset-form'),
  emailForm: byId<HTMLFormElement>('email-form'),
  passwordForm: byId<HTMLFormElement>('password-form'),
  deleteAccountForm: byId<HTMLFormElement>('delete-account-form'),
  verifyBanner: byId('verify-banner'),
  resendVerification: byId<HTMLButtonElement>('resend-verification'),
  sessions: byId('sessions'),
};

/** The token of an emailed link, from the URL's fragment (never sent to a server), then dropped from the address bar. */
function linkToken(kind: 'verify' | 'reset' | 'email'): string | undefined {
  const match = new RegExp(`^#${kind}=([A-Za-z0-9_-]+)$`).exec(window.location.hash);
  if (match) history.replaceState(null, '', window.location.pathname);
  return match?.[1];
}
let resetToken: string | undefined;

let applications: Application[] = [];

/** The message `announce` is about to show, so that a view that replaces the page can cancel it. */
let pendingAnnouncement: number | undefined;

/** Says something to everyone: visible, and read out by screen readers (polite). */
function announce(message: string) {
  page.error.hidden = true;
  // Emptied first, so the same message twice is announced twice.
  clearAnnouncement();
  pendingAnnouncement = window.setTimeout(() => (page.status.textContent = message), 50);
}

/** Empties the status line, and drops a message still on its way to it. */
function clearAnnouncement() {
  window.clearTimeout(pendingAnnouncement);
  pendingAnnouncement = undefined;
  page.status.textContent = '';
}

function showError(failure: unknown) {
  clearAnnouncement();
  page.error.textContent = failure instanceof Error ? failure.message : 'Something went wrong. Try again.';
  page.error.hidden = false;
}

/** Runs an action with its button marked busy; a lost session sends the page back to the log-in forms. */
async function busy(button: HTMLButtonElement | null, action: () => Promise<void>) {
  if (button?.getAttribute('aria-busy') === 'true') return;
  button?.setAttribute('aria-busy', 'true');
  try {
    await action();
  } catch (failure) {
    if (failure instanceof ApiFailure && failure.status === 401 && failure.code === 'unauthenticated') {
      showSignedOut();
    }
    showError(failure);
  } finally {
    button?.removeAttribute('aria-busy');
  }
}

function showSignedOut() {
  hideNewKey();
  applications = [];
  page.applications.replaceChildren();
  page.loading.hidden = true;
  page.signedIn.hidden = true;
  page.account.hidden = true;
  page.signedOut.hidden = false;
}

async function showSignedIn(session: Session) {
  // An error of a failed attempt before this one goes as the signed-in view appears, not after its applications load.
  page.error.hidden = true;
  page.accountEmail.textContent = session.email;
  page.verifyBanner.hidden = session.email_verified !== false;
  page.loading.hidden = true;
  page.signedOut.hidden = true;
  page.account.hidden = false;
  page.signedIn.hidden = false;
  await refreshApplications();
  await refreshSessions();
  await refreshAuthorizations();
}

async function refreshSessions() {
  const sessions = await api.listSessions();
  page.sessions.replaceChildren(
    ...sessions.map((session) => {
      const item = document.createElement('li');
      const text = document.createElement('span');
      const started = new Date(session.created_at).toLocaleString();
      text.textContent = `Started ${started}, ends ${new Date(session.expires_at).toLocaleString()}${session.current ? ' (this browser)' : ''}`;
      item.append(text);
      if (!session.current) {
        const end = document.createElement('button');
        end.type = 'button';
        end.className = 'button quiet';
        end.dataset.session = session.id;
        end.textContent = 'End';
        end.setAttribute('aria-label', `End the session started ${started}`);
        item.append(' ', end);
      }
      return item;
    }),
  );
}

async function refreshApplications() {
  applications = await api.listApplications();
  renderApplications(page.applications, page.noApplications, applications);
  // Each application's saved OAuth settings, read back into its form.
  for (const settings of await Promise.all(applications.map((application) => api.oauthClient(application.id)))) {
    fillOAuthSettings(page.applications, settings);
  }
}

page.applications.addEventListener('submit', (event) => {
  const form = (event.target as Element).closest<HTMLFormElement>('form[data-oauth]');
  if (!form?.dataset.oauth) return;
  event.preventDefault();
  const applicationId = form.dataset.oauth;
  const application = applications.find((candidate) => candidate.id === applicationId);
  void busy(submitter(event), async () => {
    const saved = await api.setOAuthClient(applicationId, {
      redirect_uris: linesOf(fieldValue(form, 'redirect_uris')),
      javascript_origins: linesOf(fieldValue(form, 'javascript_origins')),
    });
    fillOAuthSettings(page.applications, saved);
    announce(`OAuth settings of ${application?.name ?? 'the application'} saved.`);
  });
});

/** Shows a key that was just issued: the one time it is ever on screen. */
function showNewKey(issued: KeyIssued) {
  page.newKeyApplication.textContent = issued.application.name;
  page.newKeyValue.value = issued.new_key.secret;
  page.newKey.hidden = false;
  page.newKey.focus();
}

function hideNewKey() {
  page.newKeyValue.value = '';
  page.newKey.hidden = true;
}

const submitter = (event: SubmitEvent) =>
  (event.submitter as HTMLButtonElement | null) ?? (event.currentTarget as HTMLFormElement).querySelector('button');

const fieldValue = (form: HTMLFormElement, name: string) => String(new FormData(form).get(name) ?? '');

page.logInForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const form = page.logInForm;
  void busy(submitter(event), async () => {
    const session = await api.logIn(fieldValue(form, 'email'), fieldValue(form, 'password'));
    form.reset();
    // Sent here by an app's authorization request: once logged in, the person answers that same request.
    const consentId = consentIdOf(window.location.hash);
    if (consentId) return showConsent(consentId, session.email);
    await showSignedIn(session);
    announce(`Logged in as ${session.email}.`);
    page.main.focus();
  });
});

page.signUpForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const form = page.signUpForm;
  void busy(submitter(event), async () => {
    const { session, message } = await api.signUp(fieldValue(form, 'email'), fieldValue(form, 'password'));
    form.reset();
    await showSignedIn(session);
    announce(signUpNotice(session.email, message));
    page.main.focus();
  });
});

page.logOut.addEventListener('click', () => {
  void busy(page.logOut, async () => {
    await api.logOut();
    showSignedOut();
    announce('You are logged out.');
    page.main.focus();
  });
});

page.createForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const form = page.createForm;
  void busy(submitter(event), async () => {
    const issued = await api.createApplication({
      name: fieldValue(form, 'name'),
      description: fieldValue(form, 'description'),
      website_url: fieldValue(form, 'website_url'),
    });
    form.reset();
    await refreshApplications();
    announce(`Application ${issued.application.name} created. Copy its key now.`);
    showNewKey(issued);
  });
});

page.copyKey.addEventListener('click', () => {
  void busy(page.copyKey, async () => {
    const copied = await copyField(page.newKeyValue);
    announce(
      copied
        ? 'Key copied to the clipboard.'
        : 'Copying is blocked here: the key is selected, copy it with your keyboard.',
    );
  });
});

page.dismissKey.addEventListener('click', () => {
  hideNewKey();
  announce('The key is no longer shown.');
  page.applicationsTitle.focus();
});

page.applications.addEventListener('click', (event) => {
  const button = (event.target as Element).closest<HTMLButtonElement>('button[data-action]');
  if (!button) return;
  const application = applications.find((candidate) => candidate.id === button.dataset.application);
  if (!application) return;
  void busy(button, async () => {
    switch (button.dataset.action) {
      case 'copy-client-id': {
        const field = page.applications.querySelector<HTMLInputElement>(
          `input[data-client-id="${CSS.escape(application.id)}"]`,
        );
        if (!field) return;
        const copied = await copyField(field);
        announce(
          copied
            ? 'client_id copied to the clipboard.'
            : 'Copying is blocked here: the client_id is selected, copy it with your keyboard.',
        );
        return;
      }
      case 'rotate': {
        const confirmed = await confirmAction({
          title: `Rotate the key of ${application.name}?`,
          text: 'A new key is issued and shown once. The current key stops working at once.',
          action: 'Rotate key',
        });
        if (!confirmed) return;
        const issued = await api.rotateKey(application.id);
        await refreshApplications();
        announce(`New key issued for ${application.name}; the old one no longer works. Copy the new key now.`);
        showNewKey(issued);
        return;
      }
      case 'revoke': {
        const key = application.keys.find((candidate) => candidate.id === button.dataset.key);
        if (!key) return;
        const confirmed = await confirmAction({
          title: `Revoke key ${keyLabel(key)}?`,
          text: `Requests with this key are refused at once. This cannot be undone; rotate the key of ${application.name} to get a new one.`,
          action: 'Revoke key',
        });
        if (!confirmed) return;
        await api.revokeKey(application.id, key.id);
        await refreshApplications();
        announce(`Key ${keyLabel(key)} revoked.`);
        page.applicationsTitle.focus();
        return;
      }
      case 'delete': {
        const confirmed = await confirmAction({
          title: `Delete ${application.name}?`,
          text: 'The application and its keys are deleted; its keys stop working at once. This cannot be undone.',
          action: 'Delete application',
        });
        if (!confirmed) return;
        await api.deleteApplication(application.id);
        await refreshApplications();
        announce(`Application ${application.name} deleted.`);
        page.applicationsTitle.focus();
        return;
      }
    }
  });
});

page.sessions.addEventListener('click', (event) => {
  const button = (event.target as Element).closest<HTMLButtonElement>('button[data-session]');
  if (!button?.dataset.session) return;
  const sessionId = button.dataset.session;
  void busy(button, async () => {
    await api.endSession(sessionId);
    await refreshSessions();
    announce('Session ended.');
  });
});

page.resendVerification.addEventListener('click', () => {
  void busy(page.resendVerification, async () => announce(await api.resendVerification()));
});

page.forgotForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const form = page.forgotForm;
  void busy(submitter(event), async () => {
    const message = await api.requestPasswordReset(fieldValue(form, 'email'));
    form.reset();
    announce(message);
  });
});

page.emailForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const form = page.emailForm;
  void busy(submitter(event), async () => {
    const message = await api.requestEmailChange(fieldValue(form, 'new_email'), fieldValue(form, 'password'));
    form.reset();
    announce(message);
  });
});

page.passwordForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const form = page.passwordForm;
  void busy(submitter(event), async () => {
    await api.changePassword(fieldValue(form, 'current_password'), fieldValue(form, 'new_password'));
    form.reset();
    await refreshSessions();
    announce('Your password is changed. Every other session has ended.');
  });
});

page.deleteAccountForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const form = page.deleteAccountForm;
  void busy(submitter(event), async () => {
    const confirmed = await confirmAction({
      title: 'Delete your account?',
      text: 'Your applications and their keys, your sessions and your profile are deleted at once; the keys stop working. This cannot be undone.',
      action: 'Delete account',
    });
    if (!confirmed) return;
    await api.deleteAccount(fieldValue(form, 'password'));
    form.reset();
    showSignedOut();
    announce('Your account is deleted.');
  });
});

page.resetForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const form = page.resetForm;
  void busy(submitter(event), async () => {
    if (!resetToken) return;
    await api.resetPassword(resetToken, fieldValue(form, 'password'));
    resetToken = undefined;
    form.reset();
    form.hidden = true;
    showSignedOut();
    announce('Your password is changed and every session has ended. Log in with the new password.');
  });
});

/** Acts on an emailed link in the address (verify, new address, password reset), then shows the page for whoever is logged in. */
async function openLinkAndSession() {
  const verifyToken = linkToken('verify');
  if (verifyToken) {
    const verified = await api.verifyEmail(verifyToken);
    announce(`Your address ${verified.email} is verified. You can create applications now.`);
  }
  const emailToken = linkToken('email');
  if (emailToken) {
    const changed = await api.confirmEmailChange(emailToken);
    announce(`Your address is now ${changed.email}. Every session has ended: log in with it.`);
  }
  const token = linkToken('reset');
  if (token) {
    resetToken = token;
    page.resetForm.hidden = false;
    byId<HTMLInputElement>('reset-password').focus();
  }
  const session = await api.currentSession();
  const consentId = consentIdOf(window.location.hash);
  if (session && consentId) return showConsent(consentId, session.email);
  if (session) await showSignedIn(session);
  else showSignedOut();
  if (consentId) announce('An app asks to use your account: log in, and it will show what it asks for.');
}

/** An app's authorization request, for the logged-in person to allow or deny; their answer sends the browser on. */
async function showConsent(consentId: string, account: string) {
  const request = await api.consentRequest(consentId);
  // Signed in now: the "log in first" message has done its work, even one still on its way to the status line.
  clearAnnouncement();
  page.error.hidden = true;
  page.loading.hidden = true;
  page.signedOut.hidden = true;
  page.signedIn.hidden = true;
  page.accountEmail.textContent = account;
  page.account.hidden = false;
  document.getElementById('consent-form')?.remove();
  page.main.append(
    renderConsent(
      request,
      account,
      (approve, sites) =>
        void busy(null, async () => window.location.assign(await api.answerConsent(consentId, { approve, sites }))),
    ),
  );
}

/** The apps the person authorized, below their applications. */
async function refreshAuthorizations() {
  const list = renderAuthorizations(await api.listAuthorizations(), api, () => void busy(null, refreshAuthorizations));
  document.getElementById('authorizations')?.remove();
  page.signedIn.append(list);
}

// A link opened in a tab where the page is already open changes only the fragment: no new page load.
window.addEventListener('hashchange', () => void busy(null, openLinkAndSession));

void busy(null, openLinkAndSession).finally(() => {
  page.loading.hidden = true;
  document.documentElement.dataset.ready = 'true';
});
