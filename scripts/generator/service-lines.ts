import type { Location, OrganizationProfile, ServiceStatus } from '../hsds/types.ts';
import type { NewId } from '../hsds/uuid.ts';
import { fictionalNumber, staffContact, type ContactInput } from '../records/contact-points.ts';
import { siteLocation } from '../records/locations.ts';
import { metadataRecords } from '../records/metadata.ts';
import { organizationProfile } from '../records/organizations.ts';
import { buildService } from '../records/services.ts';
import { slug } from '../records/text.ts';
import { cities, type City } from '../sample/cities.ts';
import { languages } from '../sample/languages.ts';
import { namePrefixes, nameSuffixes, siteNameSuffixes } from '../sample/organization-names.ts';
import { organizations, type OrganizationDefinition } from '../sample/organizations.ts';
import { contactTitles, personName } from '../sample/people.ts';
import { services, type ServiceDefinition } from '../sample/services.ts';
import { sites, type Site, type SiteKind } from '../sample/sites.ts';
import { termByCode } from '../sample/taxonomy.ts';
import { Random } from './random.ts';

// Synthetic services modelled on the sample directory: each synthetic organization copies the
// profile of a sample organization (city, categories, programs, funders) under a new name and new
// sites, and runs 5 to 15 services that reuse the sample services of that city as templates.

const VALID_FROM = '2025-01-01';
const MODIFIED_FROM = Date.UTC(2025, 0, 1);
const MODIFIED_TO = Date.UTC(2026, 10, 1);
// Libraries are left out: their three sets of opening hours make every line longer.
const SITE_KINDS: SiteKind[] = ['community-centre', 'clinic', 'food-bank'];
const STATUSES: [ServiceStatus, number][] = [
  ['active', 0.85],
  ['inactive', 0.08],
  ['temporarily closed', 0.05],
  ['defunct', 0.02],
];

interface CityVocabulary {
  city: City;
  neighbourhoods: string[];
  organizations: OrganizationDefinition[];
  services: ServiceDefinition[];
}

const vocabularies: CityVocabulary[] = cities.map((city) => {
  const cityOrganizations = organizations.filter((organization) => organization.city === city.key);
  const keys = new Set(cityOrganizations.map((organization) => organization.key));
  return {
    city,
    neighbourhoods: [
      ...new Set(sites.filter((site) => site.city === city.key).map((site) => site.neighbourhood)),
    ],
    organizations: cityOrganizations,
    // Templates keep only physical sites: synthetic organizations have no virtual location.
    services: services.filter(
      (service) => keys.has(service.organization) && !service.sites.includes('virtual'),
    ),
  };
});

interface SyntheticOrganization {
  profile: OrganizationProfile;
  /** The profile serialized once, spliced into each of its services' lines. */
  json: string;
  vocabulary: CityVocabulary;
  domain: string;
  /** Sample services of the organization this one is modelled on. */
  templates: ServiceDefinition[];
  sites: Site[];
}

export class ServiceGenerator {
  private readonly random: Random;
  private readonly newId: NewId;
  private organizationCount = 0;

  constructor(seed: number) {
    this.random = new Random(seed);
    this.newId = () => this.random.uuid();
  }

  /** `count` NDJSON lines, one full service each, with no trailing newline. */
  *lines(count: number): Generator<string> {
    let produced = 0;
    while (produced < count) {
      const organization = this.organization();
      const size = Math.min(5 + this.random.int(11), count - produced);
      for (let i = 0; i < size; i++) yield this.serviceLine(organization);
      produced += size;
    }
  }

  private phoneNumber(city: City): string {
    return fictionalNumber(city.areaCode, this.random.int(100));
  }

  private contact(
    key: string,
    city: City,
    domain: string,
    role: { title: string; department: string },
  ): ContactInput {
    const name = personName(this.random.int(400));
    const number = this.phoneNumber(city);
    return staffContact(key, name, role, domain, { number, extension: 100 + this.random.int(900) });
  }

  private site(vocabulary: CityVocabulary): Site {
    const { city } = vocabulary;
    const { west, south, east, north } = city.bounds;
    const neighbourhood = this.random.pick(vocabulary.neighbourhoods);
    // Stay away from the edges of the bounds, which are often water or another city.
    const margin = 0.15;
    return {
      key: 'synthetic',
      city: city.key,
      name: `${neighbourhood} ${this.random.pick(siteNameSuffixes)}`,
      kind: this.random.pick(SITE_KINDS),
      neighbourhood,
      address: `${100 + this.random.int(9900)} ${this.random.pick(city.streets)}`,
      postalCode: this.random.pick(city.zipCodes),
      latitude: Number(
        this.random.between(south + (north - south) * margin, north - (north - south) * margin).toFixed(5),
      ),
      longitude: Number(
        this.random.between(west + (east - west) * margin, east - (east - west) * margin).toFixed(5),
      ),
    };
  }

  private languageCodes(): string[] {
    return [
      'en',
      ...this.random.sample(languages.slice(1), this.random.int(2)).map((language) => language.code),
    ];
  }

  private organization(): SyntheticOrganization {
    const vocabulary = this.random.pick(vocabularies);
    const template = this.random.pick(vocabulary.organizations);
    const { city } = vocabulary;
    const number = ++this.organizationCount;
    const name = `${this.random.pick(namePrefixes)} ${termByCode(template.terms[0]!).name} ${this.random.pick(nameSuffixes)}`;
    const definition: OrganizationDefinition = {
      ...template,
      key: `synthetic-${number}`,
      name,
      alternateName: undefined,
      description: template.description,
      // The organization is repeated in every line: its classification is left to the services.
      terms: [],
      domain: `${slug(name)}-${number}`,
      yearIncorporated: 1960 + this.random.int(65),
      ein: `${10 + this.random.int(89)}-${String(this.random.int(10_000_000)).padStart(7, '0')}`,
      parent: undefined,
      additionalWebsites: undefined,
    };
    const organizationSites = Array.from({ length: this.random.chance(0.8) ? 1 : 2 }, () =>
      this.site(vocabulary),
    );
    const organizationId = this.newId('organization');
    const locations: Location[] = organizationSites.map((site) =>
      siteLocation(
        {
          site,
          city,
          organizationId,
          organizationName: name,
          phoneNumber: this.phoneNumber(city),
          languageCodes: this.languageCodes(),
          termCodes: [],
          validFrom: VALID_FROM,
        },
        this.newId,
      ),
    );
    const profile = organizationProfile(
      definition,
      {
        id: organizationId,
        locations,
        phoneNumber: this.phoneNumber(city),
        contacts: [
          this.contact('director', city, definition.domain, {
            title: 'Executive Director',
            department: 'Administration',
          }),
        ],
      },
      this.newId,
    );
    const ownTemplates = vocabulary.services.filter((service) => service.organization === template.key);
    return {
      profile,
      json: JSON.stringify(profile),
      vocabulary,
      domain: definition.domain,
      templates: ownTemplates.length > 0 ? ownTemplates : vocabulary.services,
      sites: organizationSites,
    };
  }

  private status(): ServiceStatus {
    let roll = this.random.next();
    for (const [status, weight] of STATUSES) {
      if (roll < weight) return status;
      roll -= weight;
    }
    return 'active';
  }

  private serviceLine(organization: SyntheticOrganization): string {
    const { profile, vocabulary } = organization;
    // Mostly the services of the model organization, sometimes any service of the same city.
    const base = this.random.pick(this.random.chance(0.7) ? organization.templates : vocabulary.services);
    const locationIndexes = this.random.sample(
      profile.locations.map((_, index) => index),
      1 + this.random.int(profile.locations.length),
    );
    const firstSite = organization.sites[locationIndexes[0]!]!;
    const status = this.status();
    const lastModified = new Date(Math.floor(this.random.between(MODIFIED_FROM, MODIFIED_TO))).toISOString();
    const definition: ServiceDefinition = {
      ...base,
      name: `${firstSite.neighbourhood} ${termByCode(base.terms[0]!).name}`,
      alternateName: base.name,
      terms: base.terms.slice(0, 1),
      languages: base.languages.slice(0, 1 + this.random.int(3)),
      status,
      alert: status === 'active' ? undefined : base.alert,
    };
    const program =
      profile.programs.length > 0 && this.random.chance(0.6) ? this.random.pick(profile.programs) : undefined;
    const service = buildService(
      definition,
      {
        organization: profile,
        city: vocabulary.city,
        locations: locationIndexes.map((index) => profile.locations[index]!),
        ...(program ? { program } : {}),
        lastModified,
        validFrom: VALID_FROM,
        phoneNumber: this.phoneNumber(vocabulary.city),
        contact: this.contact(
          'coordinator',
          vocabulary.city,
          organization.domain,
          this.random.pick(contactTitles),
        ),
        ...(status === 'active'
          ? {}
          : {
              metadata: (serviceId: string) =>
                metadataRecords(
                  serviceId,
                  [
                    {
                      resourceType: 'service',
                      date: lastModified.slice(0, 10),
                      action: 'update',
                      field: 'status',
                      previous: 'active',
                      replacement: status,
                      by: personName(this.random.int(400)),
                    },
                  ],
                  this.newId,
                ),
            }),
      },
      this.newId,
    );
    const json = JSON.stringify(service);
    return `${json.slice(0, -1)},"organization":${organization.json}}`;
  }
}
