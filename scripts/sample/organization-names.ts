// Words from which the generator composes organization names, e.g. "Cedar Hill Family Network".

export const namePrefixes = [
  'Cedar Hill',
  'Riverbend',
  'Unity',
  'Harborlight',
  'Open Door',
  'Common Ground',
  'Bright Path',
  'Northstar',
  'Good Neighbor',
  'Crossroads',
  'Willow Creek',
  'Hope Street',
  'Lantern',
  'Evergreen',
  'Mosaic',
  'Keystone',
  'Sunrise',
  'Bridgeway',
  'Maple Grove',
  'Compass',
];

export const nameSuffixes = [
  'Network',
  'Alliance',
  'Collective',
  'Partners',
  'Center',
  'Project',
  'Coalition',
  'Cooperative',
];

export const siteNameSuffixes = [
  'Resource Center',
  'Family Center',
  'Community Hub',
  'Outreach Office',
  'Neighborhood House',
];
