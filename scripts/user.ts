/**
 * `npm run user -- <command> …`: manages the users of the management protocol, and their grants, directly
 * in MONGODB_URI or else the embedded database (as `npm run import` does).
 *
 *   add <login> --name N --email E [--code C]   create a user; without --code, a strong one is printed once
 *   grant <login> <path> <verb> [--name N]       grant a path (exact, or a prefix ending in *) and a verb (or *)
 *   revoke <login> <path> <verb>                 remove that grant
 *   list                                         every user and their grants
 *   remove <login>                               delete a user and their grants
 *   set-code <login> [--code C]                  replace a user's code (printed once when generated)
 *
 * A --code given on the command line may stay in the shell's history: prefer a generated one. Exit status:
 * 0 done, 1 refused (unknown login, taken login, invalid value), 2 could not run.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { HttpProblem } from '../src/http/problem.ts';
import { escapeControls } from '../src/control-characters.ts';
import { AccessEntryStore } from '../src/management/access-entries.ts';
import { accessEntryInput } from '../src/management/access-entry-input.ts';
import type { StoredUser } from '../src/db/protocol-records.ts';
import { parseBody } from '../src/management/parse-body.ts';
import { newUserInput, userCode } from '../src/management/user-input.ts';
import { UserStore } from '../src/management/users.ts';
import { failureMessage } from '../src/failure-message.ts';
import { withDatabase } from './cli/database.ts';

const USAGE = `usage: npm run user -- add <login> --name N --email E [--code C]
       npm run user -- grant <login> <path> <verb> [--name N]
       npm run user -- revoke <login> <path> <verb>
       npm run user -- list
       npm run user -- remove <login>
       npm run user -- set-code <login> [--code C]`;

/** How many operands each command takes. */
const OPERANDS: Record<string, number> = { add: 1, grant: 3, revoke: 3, list: 0, remove: 1, 'set-code': 1 };

interface Stores {
  users: UserStore;
  accessEntries: AccessEntryStore;
}

interface Options {
  name?: string;
  email?: string;
  code?: string;
}

/**
 * A refusal of the fields made from the command line, in its own words: its options by name (`--name is
 * required`), its operands by value (`the login fox is already taken`).
 */
function refusedArguments(problem: HttpProblem, operands: string[]): string {
  const errors = problem.errors ?? [];
  if (errors.length === 0) return problem.message;
  const [login, path, verb] = operands;
  const names: Record<string, string> = {
    login: `the login ${login}`,
    path: `the path ${path}`,
    verb: `the verb ${verb}`,
    name: '--name',
    email: '--email',
    code: '--code',
  };
  return errors.map(({ field = '', message }) => `${names[field] ?? field} ${message}`).join('\n');
}

/** A refusal to report in one line (exit status 1). */
class Refusal extends Error {}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      code: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command = '', ...operands] = positionals;
  if (values.help || OPERANDS[command] !== operands.length) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  return withDatabase(async (db) => {
    try {
      const users = new UserStore(db);
      await run(command, operands, values, { users, accessEntries: new AccessEntryStore(db, users) });
      return 0;
    } catch (error) {
      if (error instanceof HttpProblem) console.error(refusedArguments(error, operands));
      else if (error instanceof Refusal) console.error(error.message);
      else throw error;
      return 1;
    }
  });
}

async function run(command: string, operands: string[], options: Options, stores: Stores): Promise<void> {
  const { users, accessEntries } = stores;
  const [login = '', path = '', verb = ''] = operands;
  switch (command) {
    case 'add': {
      const code = options.code ?? generatedCode();
      const user = await users.create(
        parseBody(newUserInput, { login, name: options.name, email: options.email, code }),
      );
      console.log(`added ${user.login} (id ${user.id})`);
      if (options.code === undefined) printGenerated(code);
      return;
    }
    case 'grant': {
      const { id } = await userWithLogin(users, login);
      const grant = parseBody(accessEntryInput, { user_id: id, path, verb, name: options.name });
      const entry = await accessEntries.ensureGrant(grant);
      console.log(`granted ${entry.verb} ${entry.path} to ${login} (access entry ${entry.id})`);
      return;
    }
    case 'revoke': {
      const { id } = await userWithLogin(users, login);
      const revoked = await accessEntries.revoke(id, path, verb.toUpperCase());
      if (revoked === 0) throw new Refusal(`${login} has no grant of ${verb} ${path}`);
      console.log(`revoked ${verb.toUpperCase()} ${path} from ${login}`);
      return;
    }
    case 'list':
      // Escaped: what an earlier release stored may hold line breaks or terminal escapes.
      for await (const user of users.all()) {
        console.log([user.login, user.name, user.email, user.id].map(escapeControls).join('\t'));
        for (const entry of await accessEntries.ofUser(user.id)) {
          const name = entry.name === undefined ? '' : `\t${escapeControls(entry.name)}`;
          console.log(`  ${escapeControls(`${entry.verb} ${entry.path}`)}${name}`);
        }
      }
      return;
    case 'remove': {
      const user = await users.delete((await userWithLogin(users, login)).id);
      console.log(`removed ${user.login} and their grants`);
      return;
    }
    case 'set-code': {
      const { code } = parseBody(z.object({ code: userCode }), { code: options.code ?? generatedCode() });
      await users.setCode((await userWithLogin(users, login)).id, code);
      console.log(`code of ${login} replaced`);
      if (options.code === undefined) printGenerated(code);
      return;
    }
  }
}

async function userWithLogin(users: UserStore, login: string): Promise<StoredUser> {
  const user = await users.findByLogin(login);
  if (!user) throw new Refusal(`no user has the login ${login}`);
  return user;
}

/** 32 characters of base64url: 192 random bits. */
const generatedCode = () => randomBytes(24).toString('base64url');

function printGenerated(code: string): void {
  console.log(`code: ${code}`);
  console.log('(shown this once and stored only as a hash: keep it now)');
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(failureMessage(error));
  process.exitCode = 2;
}
