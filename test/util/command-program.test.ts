import { commandProgram } from '../../src/util/command-program.js';

describe('commandProgram', () => {
  it('finds the program after VAR=… assignments, keeping them verbatim (quotes included)', () => {
    expect(commandProgram('npm test')).toEqual({ assignments: [], program: 'npm' });
    expect(commandProgram('FOO=1 make check')).toEqual({ assignments: ['FOO=1'], program: 'make' });
    expect(commandProgram('PATH="$HOME/.cargo/bin:$PATH" RUST_LOG=\'a b\' cargo test')).toEqual({
      assignments: ['PATH="$HOME/.cargo/bin:$PATH"', "RUST_LOG='a b'"],
      program: 'cargo',
    });
    expect(commandProgram('A=x\\ y pytest -q')).toEqual({ assignments: ['A=x\\ y'], program: 'pytest' });
  });

  it('cannot tell for a path, an expansion, only assignments or an open quote', () => {
    expect(commandProgram('./gradlew test')).toBeNull();
    expect(commandProgram('$RUNNER test')).toBeNull();
    expect(commandProgram('FOO=1')).toBeNull();
    expect(commandProgram('FOO="open cargo test')).toBeNull();
    expect(commandProgram('   ')).toBeNull();
  });
});
