/**
 * The gateway's public HTML pages (community page, directory, sign-up results): plain server-rendered
 * HTML with no script at all. Every text is escaped; image addresses must be http(s); styles come
 * from one external stylesheet, so the pages run under a strict Content-Security-Policy.
 */
import type { OnboardingConfig } from '../../config';

export const STYLESHEET_PATH = '/public/assets/community.css';

/** Text for an HTML element or a double- or single-quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A long text as paragraphs: blank lines separate paragraphs, single line breaks stay line breaks.
 * Returns escaped HTML.
 */
export function paragraphs(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${p.split('\n').map(escapeHtml).join('<br>')}</p>`)
    .join('\n');
}

/** An image address fit for `src`: absolute http(s) only (no javascript:, data: or relative tricks). */
export function safeImageUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function originOf(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** Where stored images can come from: this gateway's public address and the S3 bucket, if any. */
export function imageOrigins(config: Pick<OnboardingConfig, 'publicUrl' | 's3'>): string[] {
  const origins = [originOf(config.publicUrl)];
  const s3 = config.s3;
  if (s3) {
    origins.push(originOf(s3.publicBaseUrl), originOf(s3.endpoint));
    if (!s3.publicBaseUrl && !s3.endpoint) {
      origins.push(`https://${s3.bucket}.s3.${s3.region}.amazonaws.com`, `https://s3.${s3.region}.amazonaws.com`);
    }
  }
  return [...new Set(origins.filter((o): o is string => o !== null))];
}

/** The policy of every public page: nothing runs, styles and images only from known places. */
export function pageCsp(imgOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    `img-src 'self' ${imgOrigins.join(' ')}`.trim(),
    "style-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A whole server-rendered page: escaped title, the shared stylesheet, no script. */
export function htmlPage(title: string, body: string, bodyClass = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body${bodyClass ? ` class="${escapeHtml(bodyClass)}"` : ''}>
${body}
</body>
</html>
`;
}

/** A short page with a heading and one message (sign-up results, errors). */
export function messagePage(heading: string, message: string, back?: { href: string; label: string }): string {
  const link = back ? `\n<p><a href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a></p>` : '';
  return htmlPage(
    heading,
    `<main class="card message">
<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(message)}</p>${link}
</main>`,
  );
}

export interface CommunityPageData {
  title: string;
  slug: string;
  shortDescription: string;
  description: string;
  whatYouGet: string[];
  logo: string | null;
  background: string | null;
  /** Whether the page offers the sign-up form (the community has a list). */
  signup: boolean;
}

/** The path of a community's page (slugs are lower-case letters, digits and dashes; encoded anyway). */
export function communityPath(slug: string): string {
  return `/c/${encodeURIComponent(slug)}`;
}

export function communityPage(c: CommunityPageData, formError?: string): string {
  const logo = safeImageUrl(c.logo);
  const background = safeImageUrl(c.background);
  const items = c.whatYouGet.map((s) => s.trim()).filter(Boolean);
  const parts: string[] = [];
  if (background) parts.push(`<img class="background" src="${escapeHtml(background)}" alt="">`);
  parts.push('<main class="card">', '<header>');
  if (logo) parts.push(`<img class="logo" src="${escapeHtml(logo)}" alt="${escapeHtml(`${c.title} logo`)}">`);
  parts.push(`<h1>${escapeHtml(c.title)}</h1>`);
  if (c.shortDescription.trim()) parts.push(`<p class="lead">${escapeHtml(c.shortDescription.trim())}</p>`);
  parts.push('</header>');
  if (items.length > 0) {
    parts.push(
      '<section aria-labelledby="what-you-get">',
      '<h2 id="what-you-get">What you get</h2>',
      `<ul>${items.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>`,
      '</section>',
    );
  }
  const description = paragraphs(c.description);
  if (description) parts.push(`<section class="description">${description}</section>`);
  if (c.signup) {
    const error = formError
      ? `<p class="error" id="signup-error">${escapeHtml(formError)}</p>`
      : '<p class="hint" id="signup-error">We will send you a link to confirm your subscription.</p>';
    parts.push(
      '<section aria-labelledby="join">',
      '<h2 id="join">Join the community</h2>',
      `<form method="post" action="${escapeHtml(`${communityPath(c.slug)}/signup`)}" class="signup">`,
      '<label for="email">E-mail address</label>',
      '<input id="email" name="email" type="email" autocomplete="email" required maxlength="254" aria-describedby="signup-error">',
      '<button type="submit">Subscribe</button>',
      error,
      '</form>',
      '</section>',
    );
  }
  parts.push('</main>');
  return htmlPage(c.title, parts.join('\n'), background ? 'with-background' : '');
}

export interface DirectoryEntry {
  title: string;
  slug: string;
  shortDescription: string;
  logo: string | null;
}

export function directoryPage(entries: readonly DirectoryEntry[]): string {
  const items = entries.map((e) => {
    const logo = safeImageUrl(e.logo);
    const img = logo ? `<img class="logo small" src="${escapeHtml(logo)}" alt="">` : '';
    const lead = e.shortDescription.trim() ? `<p>${escapeHtml(e.shortDescription.trim())}</p>` : '';
    return `<li>${img}<a href="${escapeHtml(communityPath(e.slug))}">${escapeHtml(e.title)}</a>${lead}</li>`;
  });
  const list = items.length > 0 ? `<ul class="directory">\n${items.join('\n')}\n</ul>` : '<p>No communities yet.</p>';
  return htmlPage('Communities', `<main class="card">\n<h1>Communities</h1>\n${list}\n</main>`);
}
