import '../styles.css';

/** Spec section 2: the SSO page has only a heading. */
export default function SsoPage() {
  return <h1 className="text-2xl font-semibold text-slate-900">SSO</h1>;
}
