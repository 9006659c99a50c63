/** The routes of spec section 2 for e-mails. */
export const EMAILS_PATH = '/engagement/emails';
export const composePath = (id: string) => `/engagement/emails/compose/${encodeURIComponent(id)}`;
export const logPath = (id: string) => `/engagement/emails/log/${encodeURIComponent(id)}`;
