/** Fixed ids of the small directories the import tests write record by record. */
export const ORG = '11111111-1111-4111-8111-111111111111';
export const LOC = '22222222-2222-4222-8222-222222222222';
export const SVC = '33333333-3333-4333-8333-333333333333';
export const SAL = '44444444-4444-4444-8444-444444444444';
export const PHONE_A = '55555555-5555-4555-8555-555555555555';
export const PHONE_B = '66666666-6666-4666-8666-666666666666';
export const SVC2 = '77777777-7777-4777-8777-777777777777';
export const SAL2 = '88888888-8888-4888-8888-888888888888';
export const SVC3 = '99999999-9999-4999-8999-999999999999';
export const CONTACT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
