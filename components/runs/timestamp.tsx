// A point in time as people read it: the time alone for today, the date too otherwise; the full
// date and time in the tooltip and the machine-readable value in dateTime.
const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const FULL = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function Timestamp({ iso }: { iso: string }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <span>—</span>;
  const today = date.toDateString() === new Date().toDateString();
  return (
    <time dateTime={iso} title={FULL.format(date)}>
      {today ? TIME.format(date) : DATE_TIME.format(date)}
    </time>
  );
}
