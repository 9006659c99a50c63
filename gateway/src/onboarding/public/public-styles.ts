/** The one stylesheet of the public pages (served at /public/assets/community.css; no inline styles). */
export const COMMUNITY_CSS = `*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1f2937;background:#f3f4f6}
body{margin:0;min-height:100vh;padding:2rem 1rem;position:relative}
.background{position:fixed;inset:0;width:100%;height:100%;object-fit:cover;z-index:-1;opacity:.35}
.card{max-width:42rem;margin:0 auto;background:#fff;border-radius:.75rem;padding:2rem;box-shadow:0 10px 30px rgba(0,0,0,.08)}
header{text-align:center}
.logo{display:block;margin:0 auto 1rem;max-width:8rem;max-height:8rem;border-radius:.5rem}
.logo.small{display:inline-block;width:2.5rem;height:2.5rem;margin:0 .75rem 0 0;vertical-align:middle;object-fit:contain}
h1{font-size:1.875rem;margin:0 0 .5rem}
h2{font-size:1.25rem;margin:2rem 0 .75rem}
.lead{font-size:1.125rem;color:#4b5563;margin:0}
.description p{margin:0 0 1rem}
ul{padding-left:1.25rem}
.directory{list-style:none;padding:0}
.directory li{padding:.75rem 0;border-bottom:1px solid #e5e7eb}
.directory li p{margin:.25rem 0 0;color:#4b5563}
a{color:#4338ca}
.signup{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.signup label{flex-basis:100%;font-weight:600}
.signup input{flex:1 1 16rem;padding:.625rem .75rem;border:1px solid #d1d5db;border-radius:.5rem;font:inherit}
.signup button{padding:.625rem 1.25rem;border:0;border-radius:.5rem;background:#4338ca;color:#fff;font:inherit;font-weight:600;cursor:pointer}
.signup button:focus-visible,.signup input:focus-visible,a:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}
.hint{flex-basis:100%;margin:0;color:#6b7280;font-size:.875rem}
.error{flex-basis:100%;margin:0;color:#b91c1c;font-size:.875rem}
.message{text-align:center}
`;
