import { lastLines } from '../../src/util/clip.js';

describe('lastLines', () => {
  it('keeps the last n lines, without the trailing newline', () => {
    expect(lastLines('one\ntwo\nthree\nfour\n', 2)).toBe('three\nfour');
  });

  it('keeps the whole text when it has fewer lines', () => {
    expect(lastLines('one\ntwo', 5)).toBe('one\ntwo');
    expect(lastLines('', 3)).toBe('');
  });
});
