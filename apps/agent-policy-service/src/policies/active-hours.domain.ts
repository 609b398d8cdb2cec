/**
 * `active_hours` is `HH:MM-HH:MM` (00:00–23:59), start inclusive, end exclusive, read in the
 * policy's time zone. A range whose end is before its start wraps midnight (22:00-06:00).
 */
export interface ActiveHours {
  /** Minutes after local midnight. */
  start: number;
  end: number;
}

const RANGE = /^([01][0-9]|2[0-3]):([0-5][0-9])-([01][0-9]|2[0-3]):([0-5][0-9])$/;

export type ActiveHoursParse = { ok: true; value: ActiveHours } | { ok: false; message: string };

export function parseActiveHours(text: string): ActiveHoursParse {
  const match = RANGE.exec(text);
  if (!match) {
    return { ok: false, message: 'must be HH:MM-HH:MM with times from 00:00 to 23:59' };
  }
  const [, sh, sm, eh, em] = match.map(Number);
  const value = { start: sh * 60 + sm, end: eh * 60 + em };
  if (value.start === value.end) {
    // Empty or all day? Ambiguous, so refused: null means always active.
    return { ok: false, message: 'must not start and end at the same time (use null for always active)' };
  }
  return { ok: true, value };
}

export function isWithinActiveHours(hours: ActiveHours, minuteOfDay: number): boolean {
  return hours.start < hours.end
    ? minuteOfDay >= hours.start && minuteOfDay < hours.end
    : minuteOfDay >= hours.start || minuteOfDay < hours.end;
}

// An IANA name (Area/Location, Etc/GMT+5, UTC), not an offset such as "+05:00" that newer ICU accepts.
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let existing = formatters.get(timeZone);
  if (!existing) {
    existing = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, existing);
  }
  return existing;
}

/** The canonical spelling of an IANA time zone (`europe/paris` → `Europe/Paris`), or null if unknown. */
export function canonicalTimeZone(name: string): string | null {
  if (name.length > 64 || !IANA_NAME.test(name)) {
    return null;
  }
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export interface LocalTime {
  /** The calendar day in the zone, `YYYY-MM-DD`: the key of the daily limit. */
  day: string;
  minuteOfDay: number;
}

export function localTime(at: Date, timeZone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(at)) {
    parts[part.type] = part.value;
  }
  return {
    day: `${parts.year.padStart(4, '0')}-${parts.month}-${parts.day}`,
    minuteOfDay: Number(parts.hour) * 60 + Number(parts.minute),
  };
}
