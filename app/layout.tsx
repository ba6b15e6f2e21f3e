// Root layout: the HTML shell every page shares. Keep it free of data fetching.
import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: 'Gatehouse',
  description: 'An approval gate for AI agent tool calls.',
  icons: { icon: '/favicon.svg' },
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
