// The 24 invented organizations of the sample directory, each working from real sites in one city.

export interface ProgramDefinition {
  key: string;
  name: string;
  description: string;
}

export interface OrganizationDefinition {
  key: string;
  city: string;
  name: string;
  alternateName?: string;
  description: string;
  /** Host name under example.org for the website and email addresses. */
  domain: string;
  yearIncorporated: number;
  legalStatus: string;
  ein: string;
  stateRegistration?: { type: string; identifier: string };
  /** Key of the parent organization. */
  parent?: string;
  sites: string[];
  virtualLocation?: { name: string; description: string; path: string };
  programs: ProgramDefinition[];
  funding: string[];
  /** Category and audience term codes describing the organization as a whole. */
  terms: string[];
  additionalWebsites?: { label: string; path: string }[];
}

const NONPROFIT = '501(c)(3) nonprofit corporation';

export const organizations: OrganizationDefinition[] = [
  {
    key: 'sea-food-network',
    city: 'seattle',
    name: 'Puget Sound Neighbors Food Network',
    alternateName: 'PSN Food Network',
    description:
      'A volunteer network running food pantries, community lunches and grocery deliveries in south and west Seattle.',
    domain: 'psn-food',
    yearIncorporated: 1989,
    legalStatus: NONPROFIT,
    ein: '91-3748201',
    stateRegistration: { type: 'Washington UBI number', identifier: '602-118-447' },
    sites: ['sea-rainier-beach-library', 'sea-columbia-library', 'sea-delridge-library', 'sea-rainier-cc'],
    programs: [
      {
        key: 'neighborhood-pantries',
        name: 'Neighborhood Pantries',
        description: 'Weekly grocery distribution at branch libraries.',
      },
    ],
    funding: ['City of Seattle Human Services Department', 'Individual donors and congregations'],
    terms: ['BN-FOOD'],
    additionalWebsites: [{ label: 'Volunteer sign-up', path: '/volunteer' }],
  },
  {
    key: 'sea-legal-collective',
    city: 'seattle',
    name: 'Emerald City Legal Aid Collective',
    description:
      'Staff attorneys and volunteer lawyers giving free legal advice on housing, immigration and criminal records.',
    domain: 'emerald-legal',
    yearIncorporated: 2004,
    legalStatus: NONPROFIT,
    ein: '91-4470312',
    sites: ['sea-central-library', 'sea-douglass-truth-library', 'sea-beacon-hill-library'],
    programs: [
      {
        key: 'library-law-clinics',
        name: 'Library Law Clinics',
        description: 'Evening and weekend clinics hosted by Seattle Public Library branches.',
      },
    ],
    funding: ['Washington State Office of Civil Legal Aid', 'King County Bar Foundation'],
    terms: ['LG', 'AUD-IMMIGRANTS'],
  },
  {
    key: 'sea-first-hill-health',
    city: 'seattle',
    name: 'First Hill Community Health Partners',
    description:
      'A community health centre offering medical, dental and counseling care on a sliding fee scale.',
    domain: 'firsthill-health',
    yearIncorporated: 1972,
    legalStatus: 'Federally qualified health center',
    ein: '91-0862254',
    sites: ['sea-first-hill-clinic', 'sea-university-library', 'sea-northgate-library'],
    programs: [
      {
        key: 'community-clinics',
        name: 'Community Clinics',
        description: 'Medical and dental care for uninsured and underinsured patients.',
      },
    ],
    funding: ['Health Resources and Services Administration (HRSA) Health Center Program', 'Patient fees'],
    terms: ['HL'],
  },
  {
    key: 'sea-cascade-youth',
    city: 'seattle',
    name: 'Cascade Youth and Family Shelter',
    description:
      'Overnight shelter, rent assistance and after-school programs for young people and families in Seattle.',
    domain: 'cascade-youth',
    yearIncorporated: 1996,
    legalStatus: NONPROFIT,
    ein: '91-1659023',
    stateRegistration: { type: 'Washington UBI number', identifier: '601-734-092' },
    sites: ['sea-capitol-hill-library', 'sea-garfield-cc', 'sea-ballard-library', 'sea-lake-city-library'],
    virtualLocation: {
      name: 'Cascade Youth Text Line',
      description: 'Text and chat support for young people, online only.',
      path: '/text',
    },
    programs: [
      {
        key: 'youth-housing',
        name: 'Youth Housing',
        description: 'Emergency beds and housing navigation for people aged 18 to 24.',
      },
      {
        key: 'family-stability',
        name: 'Family Stability',
        description: 'Keeping families housed and children in school.',
      },
    ],
    funding: ['King County Regional Homelessness Authority', 'Private foundations'],
    terms: ['BN-HOUSING', 'AUD-YOUTH', 'AUD-FAMILIES'],
  },
  {
    key: 'pdx-rose-city-pantry',
    city: 'portland',
    name: 'Rose City Pantry Alliance',
    description:
      'Neighborhood pantries and produce markets across North and East Portland, plus help enrolling in SNAP and WIC.',
    domain: 'rosecity-pantry',
    yearIncorporated: 1983,
    legalStatus: NONPROFIT,
    ein: '93-0847716',
    sites: ['pdx-north-library', 'pdx-st-johns-library', 'pdx-midland-library', 'pdx-east-portland-cc'],
    programs: [
      {
        key: 'fresh-access',
        name: 'Fresh Access',
        description: 'Fresh produce markets and pantry partnerships.',
      },
    ],
    funding: ['Oregon Department of Human Services', 'Multnomah County', 'Grocery store partners'],
    terms: ['BN-FOOD'],
  },
  {
    key: 'pdx-willamette-health',
    city: 'portland',
    name: 'Willamette Community Health Cooperative',
    alternateName: 'WCHC',
    description: 'Preventive care in libraries and schools: sealants, vaccines and peer recovery support.',
    domain: 'willamette-health',
    yearIncorporated: 2008,
    legalStatus: 'Cooperative corporation',
    ein: '93-1402281',
    sites: [
      'pdx-central-library',
      'pdx-hollywood-library',
      'pdx-gregory-heights-library',
      'pdx-sellwood-library',
    ],
    programs: [
      {
        key: 'prevention',
        name: 'Prevention in the Community',
        description: 'Health care brought to the places people already go.',
      },
    ],
    funding: ['Oregon Health Authority', 'Member dues'],
    terms: ['HL', 'AUD-FAMILIES'],
  },
  {
    key: 'pdx-bridges-to-work',
    city: 'portland',
    name: 'Bridges to Work Portland',
    description:
      'Job readiness, digital skills and construction pre-apprenticeships for adults looking for work.',
    domain: 'bridges-to-work',
    yearIncorporated: 2012,
    legalStatus: NONPROFIT,
    ein: '46-2210983',
    sites: ['pdx-albina-library', 'pdx-belmont-library', 'pdx-dishman-cc', 'pdx-gresham-library'],
    programs: [
      {
        key: 'career-pathways',
        name: 'Career Pathways',
        description: 'Training that leads to a credential and a job.',
      },
    ],
    funding: ['Worksystems Inc. workforce grant', 'Regional building trades council'],
    terms: ['ED-JOBS'],
    additionalWebsites: [{ label: 'Employer partners', path: '/employers' }],
  },
  {
    key: 'chi-lakeshore-hunger',
    city: 'chicago',
    name: 'Lakeshore Hunger Relief Coalition',
    description:
      'Mobile pantries and meal delivery across the South and West Sides, supplied from our Archer Heights warehouse.',
    domain: 'lakeshore-hunger',
    yearIncorporated: 1979,
    legalStatus: NONPROFIT,
    ein: '36-2931174',
    stateRegistration: { type: 'Illinois Attorney General charity registration', identifier: '01-047718' },
    sites: [
      'chi-food-depository',
      'chi-woodson-library',
      'chi-back-of-the-yards-library',
      'chi-legler-library',
    ],
    programs: [
      {
        key: 'mobile-pantries',
        name: 'Mobile Pantries',
        description: 'Trucks that bring groceries to neighborhoods without a grocery store.',
      },
      {
        key: 'workforce',
        name: 'Workforce Programs',
        description: 'Warehouse training for adults returning to work.',
      },
    ],
    funding: ['Illinois Department of Human Services', 'Corporate warehouse partners'],
    terms: ['BN-FOOD', 'AUD-SENIORS'],
  },
  {
    key: 'chi-pilsen-legal',
    city: 'chicago',
    name: 'Pilsen Immigrant Legal Resource Center',
    alternateName: 'PILRC',
    description:
      'Free legal consultations and citizenship classes for immigrant families, in Spanish, Chinese and English.',
    domain: 'pilsen-legal',
    yearIncorporated: 2001,
    legalStatus: NONPROFIT,
    ein: '36-4187265',
    sites: ['chi-lozano-library', 'chi-chinatown-library', 'chi-harold-washington-library'],
    virtualLocation: {
      name: 'PILRC Tenant Hotline',
      description: 'Telephone and video consultations.',
      path: '/hotline',
    },
    programs: [
      {
        key: 'new-americans',
        name: 'New Americans Initiative',
        description: 'Citizenship and status services.',
      },
    ],
    funding: ['Illinois Department of Human Services, Office of Welcoming Centers', 'Chicago Bar Foundation'],
    terms: ['LG-IMMIGRATION', 'AUD-IMMIGRANTS'],
  },
  {
    key: 'chi-northside-health',
    city: 'chicago',
    name: 'North Side Neighborhood Health Center',
    description:
      'Dental and counseling care for the North Side, with a main campus in the Illinois Medical District.',
    domain: 'northside-health',
    yearIncorporated: 1968,
    legalStatus: 'Federally qualified health center',
    ein: '36-2674455',
    sites: ['chi-sulzer-library', 'chi-uptown-library', 'chi-edgewater-library', 'chi-ogden-clinic'],
    programs: [
      { key: 'oral-health', name: 'Oral Health', description: 'Preventive and urgent dental care.' },
    ],
    funding: ['HRSA Health Center Program', 'Illinois Medicaid'],
    terms: ['HL-DENTAL', 'HL-MENTAL'],
  },
  {
    key: 'chi-westside-housing',
    city: 'chicago',
    name: 'West Side Housing Stability Network',
    description: 'Winter shelter, heating bill grants and free coats for households on the West Side.',
    domain: 'westside-housing',
    yearIncorporated: 2015,
    legalStatus: NONPROFIT,
    ein: '47-3381920',
    sites: ['chi-humboldt-park-library', 'chi-austin-library'],
    programs: [],
    funding: ['Low Income Home Energy Assistance Program (LIHEAP)', 'Neighborhood churches'],
    terms: ['BN-HOUSING', 'BN-UTILITIES'],
  },
  {
    key: 'aus-hill-country-food',
    city: 'austin',
    name: 'Hill Country Food Access Project',
    description: 'Pantries, summer meals for kids and SNAP application help in Southeast Austin.',
    domain: 'hillcountry-food',
    yearIncorporated: 1991,
    legalStatus: NONPROFIT,
    ein: '74-2593318',
    sites: [
      'aus-metropolis-warehouse',
      'aus-southeast-library',
      'aus-dove-springs-cc',
      'aus-pleasant-hill-library',
    ],
    programs: [
      {
        key: 'kids-nutrition',
        name: 'Kids Nutrition',
        description: 'Meals for children when school is out.',
      },
    ],
    funding: ['Texas Department of Agriculture Summer Food Service Program', 'Local businesses'],
    terms: ['BN-FOOD', 'AUD-FAMILIES'],
  },
  {
    key: 'aus-eastside-families',
    city: 'austin',
    name: 'Eastside Families Together',
    description: 'Child care, English conversation and emergency family housing for East Austin households.',
    domain: 'eastside-families',
    yearIncorporated: 2003,
    legalStatus: NONPROFIT,
    ein: '74-3069145',
    sites: ['aus-carver-library', 'aus-ruiz-library', 'aus-montopolis-cc', 'aus-st-john-library'],
    programs: [
      {
        key: 'family-support',
        name: 'Family Support',
        description: 'Services that help parents work, learn and stay housed.',
      },
    ],
    funding: ['City of Austin Early Childhood Council', 'Travis County Health and Human Services'],
    terms: ['FY', 'AUD-FAMILIES', 'AUD-IMMIGRANTS'],
  },
  {
    key: 'aus-capital-tenants',
    city: 'austin',
    name: 'Capital Area Tenant Legal Services',
    description: 'Lawyers for renters: eviction help, record clearing and tenant rights education.',
    domain: 'capital-tenants',
    yearIncorporated: 2010,
    legalStatus: NONPROFIT,
    ein: '27-1844096',
    sites: [
      'aus-central-library',
      'aus-twin-oaks-library',
      'aus-yarborough-library',
      'aus-little-walnut-creek-library',
    ],
    programs: [
      { key: 'housing-justice', name: 'Housing Justice', description: 'Keeping tenants in their homes.' },
    ],
    funding: ['Texas Access to Justice Foundation', 'City of Austin Housing Department'],
    terms: ['LG-HOUSING'],
  },
  {
    key: 'den-mile-high-health',
    city: 'denver',
    name: 'Mile High Family Health',
    description: 'Primary care, vaccines and a mobile dental van for west and northeast Denver.',
    domain: 'milehigh-health',
    yearIncorporated: 1985,
    legalStatus: 'Federally qualified health center',
    ein: '84-0963328',
    sites: ['den-bannock-clinic', 'den-montbello-library', 'den-westwood-library', 'den-athmar-park-library'],
    programs: [
      {
        key: 'mobile-care',
        name: 'Mobile Care',
        description: 'Care delivered from vans at branch libraries.',
      },
    ],
    funding: ['Colorado Department of Public Health and Environment', 'Denver Health Foundation grant'],
    terms: ['HL'],
  },
  {
    key: 'den-front-range-housing',
    city: 'denver',
    name: 'Front Range Housing Alliance',
    description:
      'Overnight beds for women, transitional housing for veterans and emergency rent help in Denver.',
    domain: 'frontrange-housing',
    yearIncorporated: 1999,
    legalStatus: NONPROFIT,
    ein: '84-1502871',
    sites: ['den-blair-caldwell-library', 'den-ford-warren-library', 'den-central-library'],
    programs: [
      {
        key: 'pathways-home',
        name: 'Pathways Home',
        description: 'From a bed tonight to a home of your own.',
      },
    ],
    funding: ['U.S. Department of Veterans Affairs Grant and Per Diem Program', 'City and County of Denver'],
    terms: ['BN-HOUSING', 'AUD-VETERANS', 'AUD-UNHOUSED'],
  },
  {
    key: 'den-rocky-mountain-learning',
    city: 'denver',
    name: 'Rocky Mountain Adult Learning Center',
    description: 'English classes, GED preparation and computer basics for adults across Denver.',
    domain: 'rockymountain-learning',
    yearIncorporated: 1977,
    legalStatus: NONPROFIT,
    ein: '84-0791163',
    sites: ['den-schlessman-library', 'den-valdez-perry-library', 'den-hampden-library'],
    programs: [
      {
        key: 'adult-basic-education',
        name: 'Adult Basic Education',
        description: 'Literacy, English and high school equivalency.',
      },
    ],
    funding: [
      'Colorado Department of Education, Adult Education Initiatives',
      'Denver Public Library Friends Foundation',
    ],
    terms: ['ED-ADULT', 'AUD-IMMIGRANTS'],
  },
  {
    key: 'atl-peachtree-pantry',
    city: 'atlanta',
    name: 'Peachtree Neighbors Pantry Network',
    description: 'Food pantries, grocery delivery and budget cooking classes in Southwest Atlanta.',
    domain: 'peachtree-pantry',
    yearIncorporated: 1994,
    legalStatus: NONPROFIT,
    ein: '58-2104471',
    sites: [
      'atl-desert-drive-warehouse',
      'atl-west-end-library',
      'atl-adams-park-library',
      'atl-washington-park-library',
    ],
    programs: [
      {
        key: 'neighbor-to-neighbor',
        name: 'Neighbor to Neighbor',
        description: 'Volunteer-run pantries and deliveries.',
      },
    ],
    funding: ['Georgia Department of Human Services', 'Faith community partners'],
    terms: ['BN-FOOD', 'AUD-SENIORS'],
  },
  {
    key: 'atl-sweet-auburn-legal',
    city: 'atlanta',
    name: 'Sweet Auburn Legal Defense Fund',
    description: 'Free legal representation for tenants, veterans and people with old criminal records.',
    domain: 'sweetauburn-legal',
    yearIncorporated: 1986,
    legalStatus: NONPROFIT,
    ein: '58-1688230',
    sites: ['atl-auburn-avenue-library', 'atl-central-library', 'atl-kirkwood-library'],
    programs: [
      {
        key: 'second-chances',
        name: 'Second Chances',
        description: 'Record restriction and re-entry support.',
      },
    ],
    funding: ['State Bar of Georgia Foundation', 'Fulton County'],
    terms: ['LG'],
  },
  {
    key: 'atl-downtown-health',
    city: 'atlanta',
    name: 'Downtown Atlanta Health Commons',
    description: 'Dental care, a round-the-clock crisis centre and recovery coaching in central Atlanta.',
    domain: 'downtown-health',
    yearIncorporated: 2011,
    legalStatus: NONPROFIT,
    ein: '45-1130657',
    sites: ['atl-jesse-hill-clinic', 'atl-ponce-library', 'atl-buckhead-library'],
    programs: [
      { key: 'behavioral-health', name: 'Behavioral Health', description: 'Crisis and recovery services.' },
    ],
    funding: [
      'Georgia Department of Behavioral Health and Developmental Disabilities',
      'Private hospital partners',
    ],
    terms: ['HL'],
  },
  {
    key: 'bos-food-justice',
    city: 'boston',
    name: 'Bay State Food Justice Collaborative',
    description: 'Pantries, community lunches and SNAP enrollment in Dorchester and Mattapan.',
    domain: 'baystate-foodjustice',
    yearIncorporated: 1981,
    legalStatus: NONPROFIT,
    ein: '04-2786541',
    sites: [
      'bos-south-bay-warehouse',
      'bos-mattapan-library',
      'bos-codman-square-library',
      'bos-fields-corner-library',
    ],
    programs: [
      {
        key: 'dorchester-food',
        name: 'Dorchester Food Security',
        description: 'Pantry and meal partners in Dorchester.',
      },
    ],
    funding: ['Massachusetts Emergency Food Assistance Program', 'Boston Resiliency Fund'],
    terms: ['BN-FOOD'],
  },
  {
    key: 'bos-harbor-health',
    city: 'boston',
    name: 'Harbor Health Collaborative',
    description: 'Dental outreach, primary care and vaccines for East Boston, Chinatown and the South End.',
    domain: 'harbor-health',
    yearIncorporated: 1974,
    legalStatus: 'Federally qualified health center',
    ein: '04-2517830',
    sites: ['bos-albany-street-clinic', 'bos-east-boston-library', 'bos-chinatown-library'],
    programs: [
      {
        key: 'neighborhood-care',
        name: 'Neighborhood Care',
        description: 'Clinics held in branch libraries.',
      },
    ],
    funding: ['HRSA Health Center Program', 'Massachusetts League of Community Health Centers'],
    terms: ['HL', 'AUD-IMMIGRANTS'],
  },
  {
    key: 'bos-roxbury-youth',
    city: 'boston',
    name: 'Roxbury Youth Opportunity Network',
    description: 'Tutoring, summer jobs and emergency beds for young people in Roxbury and Jamaica Plain.',
    domain: 'roxbury-youth',
    yearIncorporated: 2006,
    legalStatus: NONPROFIT,
    ein: '20-4419627',
    sites: ['bos-roxbury-library', 'bos-egleston-library', 'bos-jamaica-plain-library'],
    programs: [
      {
        key: 'youth-futures',
        name: 'Youth Futures',
        description: 'School, work and housing support for ages 8 to 24.',
      },
    ],
    funding: [
      'Boston Centers for Youth and Families',
      'Massachusetts Department of Elementary and Secondary Education',
    ],
    terms: ['FY-YOUTH', 'AUD-YOUTH'],
  },
  {
    key: 'bos-harbor-legal-partnership',
    city: 'boston',
    name: 'Harbor Medical-Legal Partnership',
    description:
      'Lawyers working alongside Harbor Health Collaborative clinicians on benefits and housing conditions.',
    domain: 'harbor-mlp',
    yearIncorporated: 2016,
    legalStatus: NONPROFIT,
    ein: '81-2260935',
    parent: 'bos-harbor-health',
    sites: ['bos-south-boston-library', 'bos-central-library'],
    programs: [],
    funding: ['Massachusetts Legal Assistance Corporation'],
    terms: ['LG', 'AUD-DISABILITIES'],
  },
];
