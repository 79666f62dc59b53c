import { stableId } from '../hsds/uuid.ts';
import type { Taxonomy, TaxonomyTerm } from '../hsds/types.ts';

// Our two taxonomies: a three-level tree of service categories and a flat list of audiences. Terms
// are written as trees of codes and flattened into HSDS taxonomy terms with parent_id links.

interface TermDefinition {
  code: string;
  name: string;
  description: string;
  children?: TermDefinition[];
}

interface TaxonomyDefinition {
  key: string;
  name: string;
  description: string;
  version: string;
  terms: TermDefinition[];
}

const serviceCategories: TaxonomyDefinition = {
  key: 'community-services',
  name: 'Community Services Categories',
  description: 'A three-level classification of human services used by the sample directory.',
  version: '1.2',
  terms: [
    {
      code: 'BN',
      name: 'Basic Needs',
      description: 'Help with food, housing, clothing and utilities.',
      children: [
        {
          code: 'BN-FOOD',
          name: 'Food',
          description: 'Programs that provide groceries or meals.',
          children: [
            { code: 'BN-FOOD-PANTRY', name: 'Food Pantries', description: 'Free groceries to take home.' },
            { code: 'BN-FOOD-MEALS', name: 'Community Meals', description: 'Hot meals served on site.' },
            {
              code: 'BN-FOOD-DELIVERY',
              name: 'Home Delivered Groceries',
              description: 'Groceries or meals brought to the door.',
            },
            {
              code: 'BN-FOOD-BENEFITS',
              name: 'Nutrition Benefits Enrollment',
              description: 'Help applying for SNAP and WIC.',
            },
          ],
        },
        {
          code: 'BN-HOUSING',
          name: 'Housing',
          description: 'Places to stay and help keeping a home.',
          children: [
            {
              code: 'BN-HOUSING-SHELTER',
              name: 'Emergency Shelter',
              description: 'Overnight beds for people without a home.',
            },
            {
              code: 'BN-HOUSING-RENT',
              name: 'Rent Assistance',
              description: 'One-time or short-term help paying rent.',
            },
            {
              code: 'BN-HOUSING-TRANSITIONAL',
              name: 'Transitional Housing',
              description: 'Housing for up to two years with support.',
            },
          ],
        },
        {
          code: 'BN-UTILITIES',
          name: 'Utilities',
          description: 'Help with energy, water and phone bills.',
          children: [
            {
              code: 'BN-UTILITIES-ENERGY',
              name: 'Energy Bill Assistance',
              description: 'Grants towards heating and electricity bills.',
            },
          ],
        },
        { code: 'BN-CLOTHING', name: 'Clothing', description: 'Free clothing, coats and shoes.' },
      ],
    },
    {
      code: 'HL',
      name: 'Health',
      description: 'Physical, dental and mental health care.',
      children: [
        {
          code: 'HL-DENTAL',
          name: 'Dental Care',
          description: 'Care for teeth and gums.',
          children: [
            {
              code: 'HL-DENTAL-CHECKUPS',
              name: 'Checkups and Cleanings',
              description: 'Routine exams, x-rays and cleanings.',
            },
            {
              code: 'HL-DENTAL-URGENT',
              name: 'Urgent Dental Care',
              description: 'Same-day care for tooth pain and infections.',
            },
          ],
        },
        {
          code: 'HL-PRIMARY',
          name: 'Primary Care',
          description: 'General medical care.',
          children: [
            {
              code: 'HL-PRIMARY-WALKIN',
              name: 'Walk-in Clinics',
              description: 'Medical visits without an appointment.',
            },
            {
              code: 'HL-PRIMARY-IMMUNIZATIONS',
              name: 'Immunizations',
              description: 'Vaccines for children and adults.',
            },
          ],
        },
        {
          code: 'HL-MENTAL',
          name: 'Mental Health',
          description: 'Support for emotional wellbeing.',
          children: [
            {
              code: 'HL-MENTAL-COUNSELING',
              name: 'Counseling',
              description: 'Talk therapy with a licensed counselor.',
            },
            {
              code: 'HL-MENTAL-CRISIS',
              name: 'Crisis Support',
              description: 'Immediate help in a mental health crisis.',
            },
          ],
        },
        {
          code: 'HL-RECOVERY',
          name: 'Substance Use Recovery',
          description: 'Treatment and peer support for addiction.',
        },
      ],
    },
    {
      code: 'LG',
      name: 'Legal Services',
      description: 'Free or low-cost help with the law.',
      children: [
        {
          code: 'LG-HOUSING',
          name: 'Housing Law',
          description: 'Help with landlord and tenant problems.',
          children: [
            {
              code: 'LG-HOUSING-EVICTION',
              name: 'Eviction Defense',
              description: 'Representation for tenants facing eviction.',
            },
          ],
        },
        {
          code: 'LG-IMMIGRATION',
          name: 'Immigration Law',
          description: 'Advice on visas, status and citizenship.',
          children: [
            {
              code: 'LG-IMMIGRATION-CITIZENSHIP',
              name: 'Citizenship Applications',
              description: 'Help completing naturalization forms.',
            },
          ],
        },
        {
          code: 'LG-RECORDS',
          name: 'Criminal Record Relief',
          description: 'Sealing and expungement of records.',
        },
      ],
    },
    {
      code: 'ED',
      name: 'Education and Employment',
      description: 'Learning, skills and work.',
      children: [
        {
          code: 'ED-ADULT',
          name: 'Adult Education',
          description: 'Classes for adult learners.',
          children: [
            {
              code: 'ED-ADULT-ESL',
              name: 'English Classes',
              description: 'English for speakers of other languages.',
            },
            {
              code: 'ED-ADULT-GED',
              name: 'High School Equivalency',
              description: 'GED preparation and testing.',
            },
          ],
        },
        {
          code: 'ED-JOBS',
          name: 'Employment',
          description: 'Finding and keeping work.',
          children: [
            {
              code: 'ED-JOBS-TRAINING',
              name: 'Job Training',
              description: 'Skills training leading to a credential.',
            },
            {
              code: 'ED-JOBS-SEARCH',
              name: 'Job Search Help',
              description: 'Resumes, interviews and job leads.',
            },
          ],
        },
        { code: 'ED-DIGITAL', name: 'Digital Skills', description: 'Computer and internet basics.' },
      ],
    },
    {
      code: 'FY',
      name: 'Family and Youth',
      description: 'Support for children, young people and parents.',
      children: [
        {
          code: 'FY-CHILDCARE',
          name: 'Child Care',
          description: 'Care for young children while parents work or study.',
        },
        {
          code: 'FY-YOUTH',
          name: 'Youth Programs',
          description: 'Activities and support for young people.',
          children: [
            { code: 'FY-YOUTH-TUTORING', name: 'Tutoring', description: 'Homework help and tutoring.' },
          ],
        },
      ],
    },
  ],
};

const audiences: TaxonomyDefinition = {
  key: 'audiences',
  name: 'Audiences',
  description: 'Who a service or organization is mainly intended for.',
  version: '1.0',
  terms: [
    { code: 'AUD-SENIORS', name: 'Older Adults', description: 'People aged 60 and over.' },
    { code: 'AUD-YOUTH', name: 'Youth', description: 'Young people aged 12 to 24.' },
    {
      code: 'AUD-FAMILIES',
      name: 'Families with Children',
      description: 'Parents and caregivers with children under 18.',
    },
    { code: 'AUD-VETERANS', name: 'Veterans', description: 'People who served in the armed forces.' },
    {
      code: 'AUD-IMMIGRANTS',
      name: 'Immigrants and Refugees',
      description: 'People who have moved to the United States.',
    },
    {
      code: 'AUD-DISABILITIES',
      name: 'People with Disabilities',
      description: 'People with physical, sensory or cognitive disabilities.',
    },
    {
      code: 'AUD-UNHOUSED',
      name: 'People Experiencing Homelessness',
      description: 'People without stable housing.',
    },
  ],
};

const TAXONOMY_SITE = 'https://taxonomy.example.org';

function taxonomyRecord(definition: TaxonomyDefinition): Taxonomy {
  return {
    id: stableId(`taxonomy/${definition.key}`),
    name: definition.name,
    description: definition.description,
    uri: `${TAXONOMY_SITE}/${definition.key}`,
    version: definition.version,
  };
}

function flattenTerms(definition: TaxonomyDefinition, taxonomy: Taxonomy): TaxonomyTerm[] {
  const terms: TaxonomyTerm[] = [];
  const visit = (term: TermDefinition, parentId: string | undefined): void => {
    const id = stableId(`taxonomy-term/${term.code}`);
    terms.push({
      id,
      code: term.code,
      name: term.name,
      description: term.description,
      ...(parentId ? { parent_id: parentId } : {}),
      taxonomy: taxonomy.name,
      taxonomy_id: taxonomy.id,
      language: 'en',
      term_uri: `${taxonomy.uri}/${term.code}`,
    });
    for (const child of term.children ?? []) visit(child, id);
  };
  for (const term of definition.terms) visit(term, undefined);
  return terms;
}

const definitions = [serviceCategories, audiences];

export const taxonomies: Taxonomy[] = definitions.map(taxonomyRecord);

export const taxonomyTerms: TaxonomyTerm[] = definitions.flatMap((definition, index) =>
  flattenTerms(definition, taxonomies[index]!),
);

const termsByCode = new Map(taxonomyTerms.map((term) => [term.code, term]));

export function termByCode(code: string): TaxonomyTerm {
  const term = termsByCode.get(code);
  if (!term) throw new Error(`Unknown taxonomy term code ${code}`);
  return term;
}

export function taxonomyOf(term: TaxonomyTerm): Taxonomy {
  return taxonomies.find((taxonomy) => taxonomy.id === term.taxonomy_id)!;
}
