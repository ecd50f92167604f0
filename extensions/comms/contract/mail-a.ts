/**
 * mail_a's public face: where a browser starts and finishes its consent, and the scopes it asks for (the twin's
 * provider registry shows them).
 */
export const MAIL_A_AUTH_PATH = "/api/connections/mail_a/auth"
export const MAIL_A_CALLBACK_PATH = "/api/connections/mail_a/callback"

export const mailAScopes = [
  "https://www.googleapis.com/auth/gmail.readonly",
  "https://www.googleapis.com/auth/gmail.send"
] as const
