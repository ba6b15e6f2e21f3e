// Root layout: the HTML shell every page shares (header, providers). No data fetching here. Every
// page is rendered per request (connection()): its scripts must carry the nonce of the request's
// Content-Security-Policy (proxy.ts), which a page prerendered at build time could not.
import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { AppHeader } from '@/components/shell/app-header';
import { Providers } from './providers';
import '@/components/ui/ui.css';
import '@/components/shell/shell.css';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Gatehouse', template: '%s · Gatehouse' },
  description: 'An approval gate for AI agent tool calls.',
  icons: { icon: '/favicon.svg' },
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
  width: 'device-width',
  initialScale: 1,
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>
          <AppHeader />
          <main className="app-main">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
