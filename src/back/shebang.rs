//! Which program a lifted script asks for: its `#!` line.
//!
//! A lifecycle script says how it must be run in its first line (`#!/bin/bash`,
//! `#!/usr/bin/env python3`); its file extension only guesses. Running a bash script with `sh`
//! breaks on a Debian or Ubuntu image, where `sh` is dash. So a lifted stack runs each script
//! with the program of its shebang, and falls back to the extension only when there is none.

/// The command line a script's shebang asks for, as words to put before the script's path:
/// `#!/bin/bash -e` → `bash -e`, `#!/usr/bin/env python3` → `python3`. The program is named by
/// its file name, found on the image's `PATH`, because images put interpreters in different
/// folders (`/bin/bash`, `/usr/bin/bash`, `/usr/local/bin/python3`).
///
/// `None` when the text has no shebang, or when a word of it is not a plain program name or
/// flag (anything a shell would read as more than one word): the caller then goes by the
/// extension, never writes such a word into the entrypoint.
pub fn interpreter(text: &str) -> Option<String> {
    let line = text.strip_prefix("\u{feff}").unwrap_or(text);
    let line = line.strip_prefix("#!")?.lines().next()?.trim();
    let mut words = line.split_whitespace();
    let program = words.next()?;
    let mut program = program.rsplit('/').next()?;
    let mut rest: Vec<&str> = words.collect();
    if program == "env" {
        // `env -S bash -e` splits its argument; a plain `env bash` names the program.
        if rest.first() == Some(&"-S") {
            rest.remove(0);
        }
        if rest.is_empty() {
            return None;
        }
        program = rest.remove(0);
    }
    let plain = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+' | '='))
    };
    if !plain(program) || program.starts_with('-') || !rest.iter().all(|w| plain(w)) {
        return None;
    }
    Some(
        std::iter::once(program)
            .chain(rest)
            .collect::<Vec<_>>()
            .join(" "),
    )
}

#[cfg(test)]
mod tests {
    use super::interpreter;

    #[test]
    fn the_shebang_names_the_program_by_its_file_name() {
        for (text, expected) in [
            ("#!/bin/bash\necho hi\n", Some("bash")),
            ("#!/usr/bin/env bash\n", Some("bash")),
            ("#! /bin/bash -e\n", Some("bash -e")),
            ("#!/usr/bin/env -S python3 -u\n", Some("python3 -u")),
            ("#!/bin/sh\r\nls\r\n", Some("sh")),
            ("\u{feff}#!/bin/ksh\n", Some("ksh")),
        ] {
            assert_eq!(interpreter(text).as_deref(), expected, "{text:?}");
        }
    }

    #[test]
    fn no_shebang_or_a_word_a_shell_would_split_is_none() {
        for text in [
            "echo hi\n",
            "",
            "#!\n",
            "#!/usr/bin/env\n",
            "#!/bin/sh; rm -rf /\n",
            "#!/bin/bash $(reboot)\n",
            "#!/bin/bash 'a b'\n",
        ] {
            assert_eq!(interpreter(text), None, "{text:?}");
        }
    }
}
