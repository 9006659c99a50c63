import type { Mail } from './mailer';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function greeting(firstName: string): string {
  return firstName ? `Hello ${firstName},` : 'Hello,';
}

export function passwordResetMail(to: string, firstName: string, link: string, ttlMinutes: number): Mail {
  return {
    to,
    subject: 'Reset your Community Console password',
    text: `${greeting(firstName)}

Someone asked to reset the password of your Community Console account.
Open this link within ${ttlMinutes} minutes to choose a new password:

${link}

If this was not you, ignore this e-mail: your password stays as it is.
`,
    html: `<p>${escapeHtml(greeting(firstName))}</p>
<p>Someone asked to reset the password of your Community Console account.
Open this link within ${ttlMinutes} minutes to choose a new password:</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>If this was not you, ignore this e-mail: your password stays as it is.</p>`,
  };
}

/** The sign-in link sent while an account's guessing limit is reached (auth/sign-in-link.ts). */
export function signInLinkMail(to: string, firstName: string, link: string, ttlMinutes: number): Mail {
  const lead =
    'Someone signed in to your Community Console account with its password while many wrong passwords were being tried on it.';
  const open = `To finish signing in, open this link within ${ttlMinutes} minutes. It works once:`;
  const warn = 'If this was not you, do not open the link, and change your password: someone knows it.';
  return {
    to,
    subject: 'Your Community Console sign-in link',
    text: `${greeting(firstName)}

${lead}
${open}

${link}

${warn}
`,
    html: `<p>${escapeHtml(greeting(firstName))}</p>
<p>${escapeHtml(lead)}
${escapeHtml(open)}</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>${escapeHtml(warn)}</p>`,
  };
}

export function confirmEmailMail(to: string, firstName: string, link: string): Mail {
  return {
    to,
    subject: 'Confirm your e-mail address',
    text: `${greeting(firstName)}

Please confirm the e-mail address of your Community Console account by opening this link:

${link}
`,
    html: `<p>${escapeHtml(greeting(firstName))}</p>
<p>Please confirm the e-mail address of your Community Console account by opening this link:</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}

/** Double opt-in of a public sign-up (widget or community page). */
export function signupConfirmMail(to: string, communityTitle: string, link: string, ttlDays: number): Mail {
  const days = ttlDays === 1 ? '1 day' : `${ttlDays} days`;
  return {
    to,
    subject: `Confirm your subscription to ${communityTitle}`,
    text: `Hello,

Someone, hopefully you, asked to subscribe this e-mail address to ${communityTitle}.
Please confirm your subscription by opening this link within ${days}:

${link}

If this was not you, ignore this e-mail: you will not be subscribed.
`,
    html: `<p>Hello,</p>
<p>Someone, hopefully you, asked to subscribe this e-mail address to ${escapeHtml(communityTitle)}.
Please confirm your subscription by opening this link within ${days}:</p>
<p><a href="${escapeHtml(link)}">Confirm my subscription</a></p>
<p>If this was not you, ignore this e-mail: you will not be subscribed.</p>`,
  };
}

/** A new customer's checkout: the link to the payment page (it proves the address is theirs). */
export function checkoutPaymentMail(
  to: string,
  firstName: string,
  order: { planDescription: string; communityName: string },
  link: string,
  ttlMinutes: number,
): Mail {
  return {
    to,
    subject: 'Continue your Community Console subscription',
    text: `${greeting(firstName)}

You are subscribing ${order.communityName} to ${order.planDescription}.
Open this link within ${ttlMinutes} minutes to pay and start your subscription:

${link}

If this was not you, ignore this e-mail: nothing is created or charged.
`,
    html: `<p>${escapeHtml(greeting(firstName))}</p>
<p>You are subscribing ${escapeHtml(order.communityName)} to ${escapeHtml(order.planDescription)}.
Open this link within ${ttlMinutes} minutes to pay and start your subscription:</p>
<p><a href="${escapeHtml(link)}">Continue to payment</a></p>
<p>If this was not you, ignore this e-mail: nothing is created or charged.</p>`,
  };
}

/** A checkout started with an address that already has an account: nothing to pay, sign in instead. */
export function checkoutAccountExistsMail(
  to: string,
  firstName: string,
  takenText: string,
  links: { signIn: string; reset: string },
): Mail {
  return {
    to,
    subject: 'You already have a Community Console account',
    text: `${greeting(firstName)}

Someone, hopefully you, started a new subscription with this e-mail address.
${takenText}

Sign in: ${links.signIn}
Forgot your password? ${links.reset}

If this was not you, ignore this e-mail: nothing was created or charged, and your account is unchanged.
`,
    html: `<p>${escapeHtml(greeting(firstName))}</p>
<p>Someone, hopefully you, started a new subscription with this e-mail address.
${escapeHtml(takenText)}</p>
<p><a href="${escapeHtml(links.signIn)}">Sign in</a> · <a href="${escapeHtml(links.reset)}">Forgot your password?</a></p>
<p>If this was not you, ignore this e-mail: nothing was created or charged, and your account is unchanged.</p>`,
  };
}

/** An invitation to a community's team (Manage Users): the link opens the console's invitation page. */
export function invitationMail(
  to: string,
  tenantName: string,
  inviter: string | null,
  link: string,
  ttlDays: number,
): Mail {
  const who = inviter ? `${inviter} invited you` : 'You are invited';
  return {
    to,
    subject: `Join ${tenantName} on Community Console`,
    text: `Hello,

${who} to join the team of ${tenantName} on Community Console.
Open this link within ${ttlDays} days to choose your name and password:

${link}

If you did not expect this invitation, ignore this e-mail.
`,
    html: `<p>Hello,</p>
<p>${escapeHtml(who)} to join the team of ${escapeHtml(tenantName)} on Community Console.
Open this link within ${ttlDays} days to choose your name and password:</p>
<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>
<p>If you did not expect this invitation, ignore this e-mail.</p>`,
  };
}

/** A verified sending domain stopped verifying (the daily re-check, domains/recheck-job.ts): to the community's owners. */
export function domainFailedMail(
  to: string,
  firstName: string,
  tenantName: string,
  domain: string,
  failing: string[],
  link: string,
): Mail {
  const which = failing.length > 0 ? failing.join(', ') : 'required';
  return {
    to,
    subject: `Action needed: ${domain} no longer verifies`,
    text: `${greeting(firstName)}

The sending domain ${domain} of ${tenantName} no longer verifies on Community Console:
its ${which} DNS records are missing or changed. Until they are fixed, mail is not sent from this domain.

Check the records and verify the domain again here:

${link}
`,
    html: `<p>${escapeHtml(greeting(firstName))}</p>
<p>The sending domain ${escapeHtml(domain)} of ${escapeHtml(tenantName)} no longer verifies on Community Console:
its ${escapeHtml(which)} DNS records are missing or changed. Until they are fixed, mail is not sent from this domain.</p>
<p><a href="${escapeHtml(link)}">Check the records and verify again</a></p>`,
  };
}

/** Profile: confirm a new sign-in address, sent to that address. */
export function emailChangeMail(to: string, firstName: string, link: string): Mail {
  return {
    to,
    subject: 'Confirm your new e-mail address',
    text: `${greeting(firstName)}

You asked to sign in to Community Console with this e-mail address from now on.
Please confirm it by opening this link:

${link}

Until you do, your account keeps its current address. If this was not you, ignore this e-mail.
`,
    html: `<p>${escapeHtml(greeting(firstName))}</p>
<p>You asked to sign in to Community Console with this e-mail address from now on. Please confirm it by opening this link:</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>Until you do, your account keeps its current address. If this was not you, ignore this e-mail.</p>`,
  };
}

/** Profile: tells the former address that the sign-in address changed (the owner's alarm if it was not them). */
export function emailChangedNoticeMail(to: string, firstName: string, newEmail: string): Mail {
  return {
    to,
    subject: 'Your sign-in e-mail address was changed',
    text: `${greeting(firstName)}

The e-mail address you sign in to Community Console with is now ${newEmail}.
If you did not change it, contact your community's owner or the platform's support at once.
`,
    html: `<p>${escapeHtml(greeting(firstName))}</p>
<p>The e-mail address you sign in to Community Console with is now <strong>${escapeHtml(newEmail)}</strong>.</p>
<p>If you did not change it, contact your community's owner or the platform's support at once.</p>`,
  };
}
