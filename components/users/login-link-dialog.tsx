// The one-time sign-in link just created for a user: shown once (only its hash is stored), with
// when it expires. Closing it forgets the link.
'use client';
import { Button, Dialog } from '@/components/ui';
import type { User } from '@/lib/client/users';
import { SecretField } from './secret-field';

export function LoginLinkDialog({
  link,
  onClose,
}: {
  link: { user: User; url: string; expiresAt: string } | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={link !== null}
      title={link ? `Sign-in link for ${link.user.username}` : 'Sign-in link'}
      description="Send this link to the user. It signs them in once and is shown only now."
      onCancel={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {link && (
        <SecretField
          label="Sign-in link"
          value={link.url}
          hint={`Valid until ${new Date(link.expiresAt).toLocaleString()}, for one sign-in.`}
        />
      )}
    </Dialog>
  );
}
