// Invented staff names for contacts, combined first name by last name.

export const firstNames = [
  'Amina',
  'Luis',
  'Mai',
  'Wei',
  'Hodan',
  'Daniel',
  'Rosa',
  'Tesfaye',
  'Grace',
  'Omar',
  'Keisha',
  'Minh',
  'Sofia',
  'Jamal',
  'Elena',
  'Kwame',
  'Hana',
  'Marcus',
  'Lucia',
  'Farah',
];

export const lastNames = [
  'Hassan',
  'Nguyen',
  'Garcia',
  'Chen',
  'Abdi',
  'Okafor',
  'Morales',
  'Tadesse',
  'Kim',
  'Johnson',
  'Rivera',
  'Tran',
  'Williams',
  'Haile',
  'Lopez',
  'Mensah',
  'Park',
  'Brooks',
  'Santos',
  'Ali',
];

export const contactTitles = [
  { title: 'Program Coordinator', department: 'Programs' },
  { title: 'Intake Specialist', department: 'Client Services' },
  { title: 'Community Outreach Lead', department: 'Outreach' },
  { title: 'Site Manager', department: 'Operations' },
];

/** A person's name from two indexes, spread so that consecutive indexes give unrelated names. */
export function personName(index: number): string {
  return `${firstNames[index % firstNames.length]} ${lastNames[(index * 7 + 3) % lastNames.length]}`;
}
