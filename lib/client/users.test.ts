import { describe, expect, it } from 'vitest';
import { tokenBody } from './tokens';
import { newUserBody, sessionsEndedMessage } from './users';

describe('newUserBody leaves blank optional fields out (the API refuses empty ones)', () => {
  it('drops a blank display name and password and trims the username', () => {
    expect(newUserBody({ username: ' bob ', displayName: '  ', role: 'user', password: '' })).toEqual({
      username: 'bob',
      role: 'user',
    });
  });

  it('keeps what was typed, the password untrimmed', () => {
    expect(
      newUserBody({ username: 'alice', displayName: ' Alice A. ', role: 'approver', password: ' pass phrase ' }),
    ).toEqual({
      username: 'alice',
      displayName: 'Alice A.',
      role: 'approver',
      password: ' pass phrase ',
    });
  });
});

describe('tokenBody', () => {
  it('sends no expiry for a blank "days" and a number otherwise (the API judges it)', () => {
    expect(tokenBody(' ci ', '')).toEqual({ name: 'ci' });
    expect(tokenBody('ci', '30')).toEqual({ name: 'ci', expiresInDays: 30 });
    expect(tokenBody('ci', 'x')).toEqual({ name: 'ci', expiresInDays: NaN });
  });
});

describe('sessionsEndedMessage', () => {
  it.each([
    [0, 'bob is signed out everywhere (no session was open).'],
    [1, 'bob is signed out everywhere (1 session ended).'],
    [3, 'bob is signed out everywhere (3 sessions ended).'],
  ])('%i sessions', (ended, text) => {
    expect(sessionsEndedMessage('bob', ended)).toBe(text);
  });
});
