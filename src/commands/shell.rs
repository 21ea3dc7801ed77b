//! `yardstick completions bash|zsh|fish` and `yardstick man`: what a shell
//! completes and what `man` shows, made from the same option tables the
//! parsers take options by (see [`super::flags`]), so neither can name an
//! option that is not there or miss one that is. Made by the `yardstick`
//! command, never by a bench: a user's bench gains nothing for them.

use super::{USAGE, options_of};
use crate::error::Error;
use crate::output::stdout;
use std::ffi::OsString;

/// Every command, as `yardstick --help` lists them; a subcommand after
/// its command.
const COMMANDS: &[&str] = &[
    "micro",
    "compare",
    "compare-builds",
    "matrix",
    "show",
    "report",
    "baseline",
    "http",
    "k6",
    "history",
    "machine",
    "completions",
    "man",
];
const HISTORY: &[&str] = &["add", "list", "show", "trend", "bisect", "changes"];
const K6: &[&str] = &["manifest", "collect"];
const SHELLS: &str = "bash, zsh or fish";

/// `yardstick completions SHELL`.
pub fn completions(args: Vec<OsString>) -> Result<i32, Error> {
    let shell = match args.first().and_then(|a| a.to_str()) {
        Some("-h" | "--help") | None => return Err(Error::Help(COMPLETIONS_HELP)),
        Some(shell) => shell.to_string(),
    };
    if args.len() > 1 {
        return Err(Error::usage(format!(
            "completions: one shell only ({SHELLS})"
        )));
    }
    let script = match shell.as_str() {
        "bash" => bash(),
        // zsh runs bash's completion functions through bashcompinit.
        "zsh" => format!("autoload -U +X bashcompinit && bashcompinit\n{}", bash()),
        "fish" => fish(),
        other => {
            return Err(Error::usage(format!(
                "completions: `{other}` is not {SHELLS}"
            )));
        }
    };
    stdout::print(&script);
    Ok(0)
}

const COMPLETIONS_HELP: &str = "usage: yardstick completions bash|zsh|fish

Prints the shell's completion script for yardstick's commands and options:
  yardstick completions bash > ~/.local/share/bash-completion/completions/yardstick
  yardstick completions zsh > ~/.zfunc/_yardstick
  yardstick completions fish > ~/.config/fish/completions/yardstick.fish";

/// The options `command` takes, as its table names them.
fn options(command: &str) -> Vec<String> {
    options_of(command)
        .map(|(taken, _)| taken)
        .unwrap_or_default()
}

/// Every command (and history subcommand) with the options it takes.
fn tables() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for command in COMMANDS {
        if *command == "history" {
            for sub in HISTORY {
                let name = format!("history {sub}");
                let taken = options(&name);
                out.push((name, taken));
            }
        } else {
            out.push((command.to_string(), options(command)));
        }
    }
    out
}

fn bash() -> String {
    let mut cases = String::new();
    for (name, taken) in tables() {
        let pattern = name.replace(' ', ":");
        cases.push_str(&format!("    {pattern}) opts=\"{}\" ;;\n", taken.join(" ")));
    }
    format!(
        r#"# yardstick's completions for bash, made by `yardstick completions bash`.
_yardstick() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} command=${{COMP_WORDS[1]}} opts=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "{commands} help --help --version" -- "$cur"))
    return
  fi
  case "$command" in
    history) if [ "$COMP_CWORD" -eq 2 ]; then
        COMPREPLY=($(compgen -W "{history}" -- "$cur")); return
      fi
      command="history:${{COMP_WORDS[2]}}" ;;
    k6) if [ "$COMP_CWORD" -eq 2 ]; then
        COMPREPLY=($(compgen -W "{k6}" -- "$cur")); return
      fi
      command=http ;;
    completions) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return ;;
  esac
  case "$command" in
{cases}  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts --help" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o default -F _yardstick yardstick
"#,
        commands = COMMANDS.join(" "),
        history = HISTORY.join(" "),
        k6 = K6.join(" "),
    )
}

fn fish() -> String {
    let mut out =
        String::from("# yardstick's completions for fish, made by `yardstick completions fish`.\n");
    out.push_str(&format!(
        "complete -c yardstick -f -n __fish_use_subcommand -a \"{}\"\n",
        COMMANDS.join(" ")
    ));
    out.push_str(&format!(
        "complete -c yardstick -f -n \"__fish_seen_subcommand_from history; and not __fish_seen_subcommand_from {0}\" -a \"{0}\"\n",
        HISTORY.join(" ")
    ));
    out.push_str(
        "complete -c yardstick -f -n \"__fish_seen_subcommand_from completions\" -a \"bash zsh fish\"\n",
    );
    for (name, taken) in tables() {
        let condition = match name.split_once(' ') {
            Some((_, sub)) => format!(
                "__fish_seen_subcommand_from history; and __fish_seen_subcommand_from {sub}"
            ),
            None => format!("__fish_seen_subcommand_from {name}"),
        };
        for option in taken {
            let flag = match option.strip_prefix("--") {
                Some(long) => format!("-l {long}"),
                None => format!("-s {}", option.trim_start_matches('-')),
            };
            out.push_str(&format!(
                "complete -c yardstick -n \"{condition}\" {flag}\n"
            ));
        }
    }
    out
}

/// `yardstick man`: the manual page, in roff, of every command and option.
pub fn man(args: Vec<OsString>) -> Result<i32, Error> {
    if let Some(a) = args.first() {
        return match a.to_str() {
            Some("-h" | "--help") => Err(Error::Help(
                "usage: yardstick man\n\nPrints yardstick's manual page (roff): yardstick man | man -l -",
            )),
            _ => Err(Error::usage(
                "man: takes no argument (yardstick man | man -l -)",
            )),
        };
    }
    let mut page = String::from(
        ".TH YARDSTICK 1\n.SH NAME\nyardstick \\- calibrated benchmarks that guard a codebase's speed in CI\n",
    );
    page.push_str(".SH SYNOPSIS\n.nf\n");
    page.push_str(&roff(USAGE));
    page.push_str("\n.fi\n.SH COMMANDS\n");
    for (name, _) in tables() {
        let help = super::help_of(&name);
        if let Some(text) = help {
            page.push_str(&format!(".SS yardstick {name}\n.nf\n{}\n.fi\n", roff(text)));
        }
    }
    page.push_str(
        ".SH SEE ALSO\ndocs/cli.md in yardstick's repository has every option with its default.\n",
    );
    stdout::print(&page);
    Ok(0)
}

/// `text` as roff keeps it: backslashes doubled, and a line that starts
/// with a dot or a quote escaped, so none is read as a request.
fn roff(text: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.replace('\\', "\\\\");
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_name_every_option_of_every_command() {
        let bash = bash();
        for (name, taken) in tables() {
            if name == "completions" || name == "man" || name == "k6" {
                continue;
            }
            assert!(!taken.is_empty(), "{name} takes no option?");
            let case = format!(
                "    {}) opts=\"{}\"",
                name.replace(' ', ":"),
                taken.join(" ")
            );
            assert!(bash.contains(&case), "{name}");
        }
        assert!(bash.contains("--repeat") && bash.contains("--save-baseline"));
        let fish = fish();
        assert!(fish.contains("__fish_seen_subcommand_from micro\" -l repeat"));
    }

    #[test]
    fn roff_escapes_what_it_would_read_as_requests() {
        assert_eq!(roff(".TH x\n'y\na\\b"), "\\&.TH x\n\\&'y\na\\\\b");
    }
}
