// The login page: the one-time link card (when the URL carries ?token=) above the password form.
// On success a full navigation to `next` (same-site paths only), so every server-rendered page and
// cached query starts over as the new user.
'use client';
import { Button, Card, CardHeader, Notice } from '@/components/ui';
import { loginErrorMessage, safeNextPath, useLoginWithToken, useMe } from '@/lib/client/auth';
import { PasswordForm } from './password-form';
import './auth.css';

export function LoginView({ token, next }: { token: string | null; next: string | null }) {
  const me = useMe();
  const target = safeNextPath(next);
  const goOn = () => window.location.assign(target);

  return (
    <div className="login">
      <h1 className="page-title">Sign in</h1>
      {me.data && (
        <Notice tone="info">
          You are signed in as {me.data.username}. <a href={target}>Continue</a>, or sign in as someone else below.
        </Notice>
      )}
      {token && <LinkCard token={token} onSignedIn={goOn} />}
      {token && <p className="login__or">or sign in with a password</p>}
      <Card aria-labelledby="password-heading">
        <CardHeader id="password-heading" title="Username and password" />
        <PasswordForm onSignedIn={goOn} />
      </Card>
    </div>
  );
}

function LinkCard({ token, onSignedIn }: { token: string; onSignedIn: () => void }) {
  const exchange = useLoginWithToken();
  const used = exchange.isSuccess;
  return (
    <Card aria-labelledby="link-heading" className="login__link-card">
      <CardHeader id="link-heading" title="One-time sign-in link" />
      <p>This link signs you in once. Press the button to use it.</p>
      {exchange.isError && <Notice tone="danger">{loginErrorMessage(exchange.error)}</Notice>}
      <div className="login__actions">
        <Button
          variant="primary"
          disabled={exchange.isPending || used}
          onClick={() => exchange.mutate(token, { onSuccess: onSignedIn })}
        >
          Sign in with the one-time link
        </Button>
      </div>
    </Card>
  );
}
