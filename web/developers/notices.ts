/** What the sign-up answer's message says when the server sends no email (`SMTP_URL` unset, outside production). */
const NO_MAIL = /SMTP_URL is not set/;

/**
 * The welcome after a sign-up: where the link to verify the address is. A
 * server that sends no email says so in its answer's message; the page then
 * says the link is in the server's log, never that it was emailed.
 */
export function signUpNotice(email: string, answer: string): string {
  const link = NO_MAIL.test(answer)
    ? 'This server sends no email (SMTP_URL is not set): the link to verify the address is in the server log, where npm start runs. Open it'
    : 'Open the link we emailed you to verify the address';
  return `Welcome! Your account ${email} is ready. ${link}, then create an application to get an API key.`;
}
