import type { Contact, Language, Phone } from '../hsds/types.ts';
import type { NewId } from '../hsds/uuid.ts';
import { languageName } from '../sample/languages.ts';
import { slug } from './text.ts';

export function languageRecords(codes: string[], newId: NewId, note?: string): Language[] {
  return codes.map((code) => ({
    id: newId(`language/${code}`),
    name: languageName(code).name,
    code,
    ...(note && code !== 'en' ? { note } : {}),
  }));
}

export interface PhoneInput {
  key: string;
  number: string;
  type: 'voice' | 'text' | 'fax';
  description: string;
  extension?: number;
  languageCodes?: string[];
}

export function phoneRecord(input: PhoneInput, newId: NewId): Phone {
  const phoneIds: NewId = (key) => newId(`phone/${input.key}/${key}`);
  return {
    id: newId(`phone/${input.key}`),
    number: input.number,
    ...(input.extension === undefined ? {} : { extension: input.extension }),
    type: input.type,
    description: input.description,
    ...(input.languageCodes ? { languages: languageRecords(input.languageCodes, phoneIds) } : {}),
  };
}

export interface ContactInput {
  key: string;
  name: string;
  title: string;
  department?: string;
  email: string;
  phone: PhoneInput;
}

export function contactRecord(input: ContactInput, newId: NewId): Contact {
  const contactIds: NewId = (key) => newId(`contact/${input.key}/${key}`);
  return {
    id: newId(`contact/${input.key}`),
    name: input.name,
    title: input.title,
    ...(input.department ? { department: input.department } : {}),
    email: input.email,
    phones: [phoneRecord(input.phone, contactIds)],
  };
}

/** A number in the 555-0100 to 555-0199 block, which is reserved for fiction in every area code. */
export function fictionalNumber(areaCode: string, line: number): string {
  return `+1 ${areaCode}-555-${String(100 + (line % 100)).padStart(4, '0')}`;
}

/** A named person at an organization, with a direct line: how both the fixtures and the generator staff them. */
export function staffContact(
  key: string,
  name: string,
  role: { title: string; department: string },
  domain: string,
  direct: { number: string; extension: number },
): ContactInput {
  return {
    key,
    name,
    title: role.title,
    department: role.department,
    email: `${slug(name).replace('-', '.')}@${domain}.example.org`,
    phone: { key: 'direct', ...direct, type: 'voice', description: 'Direct line.' },
  };
}
