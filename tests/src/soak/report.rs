//! The soak's report: markdown lines, printed as they come, and the checks that failed.

use std::path::Path;

/// The report being written.
#[derive(Debug, Default)]
pub struct Report {
    text: String,
    failures: Vec<String>,
}

impl Report {
    /// Adds a line (and prints it).
    pub fn line(&mut self, line: impl AsRef<str>) {
        println!("{}", line.as_ref());
        self.text.push_str(line.as_ref());
        self.text.push('\n');
    }

    /// Records a check: `what` is reported, and listed as a failure unless `ok`.
    pub fn check(&mut self, ok: bool, what: impl AsRef<str>) {
        let mark = if ok { "ok" } else { "FAILED" };
        self.line(format!("- check {mark}: {}", what.as_ref()));
        if !ok {
            self.failures.push(what.as_ref().to_owned());
        }
    }

    /// The checks that failed.
    pub fn failures(&self) -> &[String] {
        &self.failures
    }

    /// Writes the report to `path`, creating its folder.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)?;
        }
        std::fs::write(path, &self.text)
    }
}
