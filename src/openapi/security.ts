/**
 * `components.securitySchemes`: how callers of the management and meta protocols and of bulk loading
 * present their login and code (auth/credentials.ts): both headers, or HTTP Basic.
 */
export const securitySchemes = {
  appId: { type: 'apiKey', in: 'header', name: 'x-appid', description: 'The login of a user.' },
  appKey: { type: 'apiKey', in: 'header', name: 'x-appkey', description: "The user's code." },
  basic: { type: 'http', scheme: 'basic', description: 'The login as user name, the code as password.' },
};

/** Either way of presenting credentials; `x-appid` and `x-appkey` go together. */
export const credentialsRequired = [{ appId: [], appKey: [] }, { basic: [] }];
