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
