// The seeded demo accounts (gateway/src/seed.ts creates them); printed by `npm start`.
export const DEMO_LOGINS = [
  ['Super admin', 'admin@console.test', 'admin-pass-2026'],
  ['Global admin', 'global@console.test', 'global-pass-2026'],
  ['Acme DAO owner (START UP, billing set up)', 'owner@acme.test', 'owner-pass-2026'],
  ['Acme DAO staff (contacts + e-mails only)', 'staff@acme.test', 'staff-pass-2026'],
  ['Basic Guild owner (BASIC, no billing)', 'owner@basic.test', 'basic-pass-2026'],
  ['Lab Rats owner (experimental features)', 'owner@lab.test', 'lab-pass-2026'],
];
