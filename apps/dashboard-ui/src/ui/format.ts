import { h } from './dom';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** `<time datetime="…">` in the reader's locale and time zone; the exact instant on hover. */
export function timeElement(iso: string | null | undefined, empty = '—'): HTMLElement | string {
  if (!iso) {
    return empty;
  }
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) {
    return iso;
  }
  return h('time', { attrs: { datetime: iso, title: iso } }, dateTime.format(date));
}

/** "42 min left", "1 h 5 min left", "under a minute left"; undefined once the moment has passed. */
export function timeLeft(untilIso: string, now: number = Date.now()): string | undefined {
  const ms = new Date(untilIso).getTime() - now;
  if (!(ms > 0)) {
    return undefined;
  }
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) {
    return 'under a minute left';
  }
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts = [
    days > 0 ? `${days} d` : '',
    hours > 0 ? `${hours} h` : '',
    rest > 0 && days === 0 ? `${rest} min` : '',
  ];
  return `${parts.filter(Boolean).join(' ')} left`;
}

/** A long id shortened for display; the full id stays available to copy and to assistive tech. */
export function idElement(id: string): HTMLElement {
  const short = id.length > 16 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
  return h('code', { class: 'id', attrs: { title: id, 'aria-label': id } }, short);
}

export function pluralize(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The API's date filters are instants; the form's dates are whole UTC days. */
export function startOfUtcDay(date: string): string {
  return `${date}T00:00:00.000Z`;
}

export function startOfNextUtcDay(date: string): string {
  const next = new Date(`${date}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}
