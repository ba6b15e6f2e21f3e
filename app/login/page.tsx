// /login: sign in with a username and password, or with a one-time link (?token=...). Outside the
// protected route groups, so it always renders. The token is only posted on a button press:
// opening the link (or a link previewer fetching it) never uses it up.
import type { Metadata } from 'next';
import { LoginView } from '@/components/auth/login-view';

export const metadata: Metadata = { title: 'Sign in', robots: { index: false } };

type Search = Promise<Record<string, string | string[] | undefined>>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function LoginPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  return <LoginView token={first(params.token) ?? null} next={first(params.next) ?? null} />;
}
