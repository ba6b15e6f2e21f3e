// `npm run policy:test -- <file> [--workspace <dir>]`: runs the tests a policy file carries, for
// policies kept in a repository (a CI step). The file may be in any format importPolicy reads.
// Exit codes: 0 every test passes (or there are none), 1 a test fails, 2 the file cannot be read,
// parsed or validated, or the arguments are wrong.
import { policyTestMain, type Io } from './policy-test-main';

const io: Io = { out: (line) => console.log(line), err: (line) => console.error(line) };
policyTestMain(process.argv.slice(2), io).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(`policy:test failed: ${(error as Error)?.message ?? String(error)}`);
    process.exitCode = 2;
  },
);
