// Recurring opening hours, written once and reused by sites and services (RFC 5545 days and freq).

export interface OpeningHours {
  freq: 'WEEKLY' | 'MONTHLY';
  /** Comma-separated days; with MONTHLY each day carries its occurrence in the month (2SA). */
  byday: string;
  opensAt: string;
  closesAt: string;
  description: string;
}

const WEEKDAYS = 'MO,TU,WE,TH,FR';
const EVERY_DAY = 'MO,TU,WE,TH,FR,SA,SU';

export const siteHours = {
  library: [
    {
      freq: 'WEEKLY',
      byday: 'MO,TU,WE,TH',
      opensAt: '10:00',
      closesAt: '20:00',
      description: 'Open late Monday to Thursday.',
    },
    {
      freq: 'WEEKLY',
      byday: 'FR,SA',
      opensAt: '10:00',
      closesAt: '18:00',
      description: 'Friday and Saturday daytime hours.',
    },
    { freq: 'WEEKLY', byday: 'SU', opensAt: '12:00', closesAt: '18:00', description: 'Sunday afternoons.' },
  ],
  'community-centre': [
    {
      freq: 'WEEKLY',
      byday: WEEKDAYS,
      opensAt: '09:00',
      closesAt: '21:00',
      description: 'Weekday hours, including evening programs.',
    },
    { freq: 'WEEKLY', byday: 'SA', opensAt: '09:00', closesAt: '17:00', description: 'Saturday hours.' },
  ],
  clinic: [
    {
      freq: 'WEEKLY',
      byday: WEEKDAYS,
      opensAt: '08:00',
      closesAt: '17:00',
      description: 'Weekday clinic hours.',
    },
    {
      freq: 'WEEKLY',
      byday: 'SA',
      opensAt: '09:00',
      closesAt: '13:00',
      description: 'Saturday morning clinic.',
    },
  ],
  'food-bank': [
    {
      freq: 'WEEKLY',
      byday: WEEKDAYS,
      opensAt: '07:30',
      closesAt: '16:00',
      description: 'Warehouse and volunteer hours.',
    },
  ],
} satisfies Record<string, OpeningHours[]>;

export const serviceHours = {
  office: [
    {
      freq: 'WEEKLY',
      byday: WEEKDAYS,
      opensAt: '09:00',
      closesAt: '17:00',
      description: 'Weekdays, 9am to 5pm.',
    },
  ],
  pantry: [
    {
      freq: 'WEEKLY',
      byday: 'TU,TH',
      opensAt: '13:00',
      closesAt: '19:00',
      description: 'Tuesday and Thursday afternoons.',
    },
    { freq: 'WEEKLY', byday: 'SA', opensAt: '09:00', closesAt: '12:00', description: 'Saturday mornings.' },
  ],
  meals: [
    {
      freq: 'WEEKLY',
      byday: WEEKDAYS,
      opensAt: '11:30',
      closesAt: '13:00',
      description: 'Lunch is served on weekdays.',
    },
  ],
  'monthly-market': [
    {
      freq: 'MONTHLY',
      byday: '2SA',
      opensAt: '10:00',
      closesAt: '13:00',
      description: 'Second Saturday of each month.',
    },
  ],
  'evening-intake': [
    {
      freq: 'WEEKLY',
      byday: EVERY_DAY,
      opensAt: '18:00',
      closesAt: '22:00',
      description: 'Intake every evening; guests stay overnight.',
    },
  ],
  'walk-in': [
    {
      freq: 'WEEKLY',
      byday: 'MO,WE,FR',
      opensAt: '09:00',
      closesAt: '12:00',
      description: 'Walk-in mornings, first come first served.',
    },
  ],
  'clinic-evenings': [
    {
      freq: 'WEEKLY',
      byday: 'TU,TH',
      opensAt: '16:00',
      closesAt: '20:00',
      description: 'Tuesday and Thursday evening appointments.',
    },
  ],
  'evening-clinic': [
    {
      freq: 'WEEKLY',
      byday: 'WE',
      opensAt: '17:30',
      closesAt: '19:30',
      description: 'Wednesday evening sessions.',
    },
  ],
  classes: [
    {
      freq: 'WEEKLY',
      byday: 'MO,WE',
      opensAt: '18:00',
      closesAt: '20:00',
      description: 'Monday and Wednesday evening classes.',
    },
  ],
  'after-school': [
    {
      freq: 'WEEKLY',
      byday: WEEKDAYS,
      opensAt: '15:00',
      closesAt: '18:00',
      description: 'After school on weekdays.',
    },
  ],
  'around-the-clock': [
    {
      freq: 'WEEKLY',
      byday: EVERY_DAY,
      opensAt: '00:00',
      closesAt: '23:59',
      description: 'Staffed 24 hours a day, every day.',
    },
  ],
} satisfies Record<string, OpeningHours[]>;

export type ServiceHoursKey = keyof typeof serviceHours;
