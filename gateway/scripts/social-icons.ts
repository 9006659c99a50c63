// Makes the social icons the gateway serves (gateway/static/social/<name>.png): e-mail clients need
// PNG, and the MJML social element would otherwise load its icons from the MJML authors' host.
// A white glyph (black on Snapchat's yellow) on a transparent 64×64 square (2× the social element's default 20 px, sharp on
// high-density screens); the element's background colour shows around it.
// Glyphs: simple-icons (CC0), and @tabler/icons (MIT) for the networks simple-icons no longer has.
// Run after changing the list: `pnpm --filter ./gateway run icons:social`; the PNGs are committed.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import { SOCIAL_ICONS, type SocialIcon } from '@console/shared/contracts';

const require = createRequire(import.meta.url);
const OUT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../static/social');
const SIZE = 64;
/** The glyph fills the middle 24/36 of the square (MJML's own icons leave about this much room). */
const VIEW_BOX = '-6 -6 36 36';

type Source =
  | { from: 'simple-icons'; slug: string; ink?: string }
  | { from: 'tabler'; style: 'filled' | 'outline'; name: string; drop?: string[] };

const SOURCES: Record<SocialIcon, Source> = {
  facebook: { from: 'simple-icons', slug: 'facebook' },
  twitter: { from: 'tabler', style: 'filled', name: 'brand-twitter' },
  x: { from: 'simple-icons', slug: 'x' },
  google: { from: 'simple-icons', slug: 'google' },
  pinterest: { from: 'simple-icons', slug: 'pinterest' },
  // The "in" without the outline's rounded square (the element's background is the square).
  linkedin: { from: 'tabler', style: 'outline', name: 'brand-linkedin', drop: ['M3 7a4 4'] },
  instagram: { from: 'simple-icons', slug: 'instagram' },
  web: { from: 'tabler', style: 'outline', name: 'world' },
  // Black on Snapchat's yellow: white would not read.
  snapchat: { from: 'simple-icons', slug: 'snapchat', ink: '#000000' },
  youtube: { from: 'simple-icons', slug: 'youtube' },
  tumblr: { from: 'simple-icons', slug: 'tumblr' },
  github: { from: 'simple-icons', slug: 'github' },
  xing: { from: 'simple-icons', slug: 'xing' },
  vimeo: { from: 'simple-icons', slug: 'vimeo' },
  medium: { from: 'simple-icons', slug: 'medium' },
  soundcloud: { from: 'simple-icons', slug: 'soundcloud' },
  dribbble: { from: 'simple-icons', slug: 'dribbble' },
  discord: { from: 'simple-icons', slug: 'discord' },
  telegram: { from: 'simple-icons', slug: 'telegram' },
  reddit: { from: 'simple-icons', slug: 'reddit' },
  farcaster: { from: 'simple-icons', slug: 'farcaster' },
  lens: { from: 'simple-icons', slug: 'lens' },
  bluesky: { from: 'simple-icons', slug: 'bluesky' },
  mastodon: { from: 'simple-icons', slug: 'mastodon' },
  tiktok: { from: 'simple-icons', slug: 'tiktok' },
  twitch: { from: 'simple-icons', slug: 'twitch' },
  substack: { from: 'simple-icons', slug: 'substack' },
};

/** MJML's own file names for two of its networks: the renderer moves its icon host here, names unchanged. */
export const MJML_FILE_ALIASES: Record<string, SocialIcon> = { 'twitter-x': 'x', 'google-plus': 'google' };

function paths(svg: string): string[] {
  return [...svg.matchAll(/<path\b[^>]*\bd="([^"]+)"[^>]*\/?>/g)]
    .filter((m) => !/fill="none"/.test(m[0]) || !/stroke="none"/.test(m[0]))
    .map((m) => m[1] ?? '');
}

function glyph(source: Source): string {
  if (source.from === 'simple-icons') {
    const svg = fs.readFileSync(require.resolve(`simple-icons/icons/${source.slug}.svg`), 'utf8');
    return paths(svg)
      .map((d) => `<path fill="${source.ink ?? '#ffffff'}" d="${d}"/>`)
      .join('');
  }
  const svg = fs.readFileSync(require.resolve(`@tabler/icons/${source.style}/${source.name}.svg`), 'utf8');
  const kept = paths(svg).filter((d) => !(source.drop ?? []).some((prefix) => d.startsWith(prefix)));
  const body = kept.map((d) => `<path d="${d}"/>`).join('');
  return source.style === 'filled'
    ? `<g fill="#ffffff" stroke="none">${body}</g>`
    : `<g fill="none" stroke="#ffffff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</g>`;
}

export function socialIconPng(name: SocialIcon): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="${VIEW_BOX}">${glyph(SOURCES[name])}</svg>`;
  return new Resvg(svg, { fitTo: { mode: 'width', value: SIZE } }).render().asPng();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  for (const name of SOCIAL_ICONS) fs.writeFileSync(path.join(OUT_DIR, `${name}.png`), socialIconPng(name));
  for (const [alias, name] of Object.entries(MJML_FILE_ALIASES)) {
    fs.copyFileSync(path.join(OUT_DIR, `${name}.png`), path.join(OUT_DIR, `${alias}.png`));
  }
  console.log(`${SOCIAL_ICONS.length} icons (+${Object.keys(MJML_FILE_ALIASES).length} aliases) in ${OUT_DIR}`);
}
