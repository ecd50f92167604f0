/**
 * The `integrations` capability's adapter: the node's mail and chat accounts, used on behalf of
 * the calling being. The host implements it (host/integrations): it picks the credential (the
 * being's own connection first, then the node's setting), speaks the protocol, and records what
 * was done in the being's twin activity. Every method rejects with an Error whose message says
 * plainly why (not configured and what to set, refused by the server) and never holds a secret.
 */

export interface OutgoingMail {
  /** One or more addresses. */
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
}

export interface MailSent {
  readonly to: ReadonlyArray<string>
  readonly subject: string
}

export interface IntegrationsAdapter {
  readonly email: {
    /** Through the node's one SMTP path (SMTP_URL). */
    readonly send: (mail: OutgoingMail) => Promise<MailSent>
  }
}
