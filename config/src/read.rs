//! Reading a dealer's files as text under the size limit: the dealer
//! YAML, presets and Markdown pages alike. A huge file (or a link to
//! /dev/zero in a pull request) is refused without being read whole.

use std::path::Path;

use crate::yaml;

/// Why a file could not be read as text.
pub(crate) enum ReadError {
    Io(std::io::Error),
    TooLarge(yaml::SyntaxError),
    NotText(std::string::FromUtf8Error),
}

impl ReadError {
    pub(crate) fn message(&self) -> String {
        match self {
            ReadError::Io(e) => e.to_string(),
            ReadError::TooLarge(e) => e.message.clone(),
            ReadError::NotText(e) => format!(
                "the file is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        }
    }
}

/// Reads a text file of the dealer (a Markdown page) under the same limits
/// as the dealer file; the error is a sentence for the marketer.
pub(crate) fn read_text(path: &Path) -> Result<String, String> {
    read_source(path).map_err(|e| match e {
        ReadError::Io(e) => format!("cannot read the file: {e}"),
        other => other.message(),
    })
}

/// Reads a YAML file, refusing one over the size limit without reading it
/// all (a pull request could add a huge file, or a link to /dev/zero).
pub(crate) fn read_source(path: &Path) -> Result<String, ReadError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    if let Ok(meta) = file.metadata() {
        yaml::check_size(meta.len(), 0).map_err(ReadError::TooLarge)?;
    }
    // The metadata of a pipe or device says nothing: read one byte past
    // the limit at most.
    let mut bytes = Vec::new();
    file.take(yaml::MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    yaml::check_size(bytes.len() as u64, 0).map_err(ReadError::TooLarge)?;
    String::from_utf8(bytes).map_err(ReadError::NotText)
}
