//! Source positions of MLIR locations, as diagnostics print them
//! (`file:line:col`).

use melior::{ir::Location, StringRef};
use mlir_sys::{
    mlirLocationCallSiteGetCaller, mlirLocationFileLineColRangeGetFilename,
    mlirLocationFileLineColRangeGetStartColumn, mlirLocationFileLineColRangeGetStartLine,
    mlirLocationFusedGetLocations, mlirLocationFusedGetNumLocations, mlirLocationIsACallSite,
    mlirLocationIsAFileLineColRange, mlirLocationIsAFused, mlirLocationIsAName,
    mlirLocationNameGetChildLoc, MlirLocation,
};

/// A position in a source file: 1-based line and column, as MLIR's
/// `FileLineColLoc` stores them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileLineCol {
    /// The file name as the parser was given it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl std::fmt::Display for FileLineCol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// The first file position inside `location`: itself for a `FileLineColLoc`,
/// the child of a `NameLoc`, the caller of a `CallSiteLoc`, the first located
/// member of a `FusedLoc`. `None` for unknown and opaque locations.
pub fn file_line_col(location: Location) -> Option<FileLineCol> {
    resolve(location.to_raw())
}

/// `file:line:col` of `location` for a message ([`file_line_col`]), or
/// MLIR's printed form of the location where it has no file position.
pub fn describe(location: Location) -> String {
    file_line_col(location).map_or_else(|| location.to_string(), |f| f.to_string())
}

fn resolve(raw: MlirLocation) -> Option<FileLineCol> {
    // SAFETY: `raw` comes from a live `Location`; each accessor is called only
    // on the location kind it is defined for.
    unsafe {
        if mlirLocationIsAFileLineColRange(raw) {
            let file = StringRef::from_raw(mlirIdentifierStr(
                mlirLocationFileLineColRangeGetFilename(raw),
            ));
            return Some(FileLineCol {
                file: file.as_str().unwrap_or("<invalid utf-8>").to_owned(),
                line: mlirLocationFileLineColRangeGetStartLine(raw).max(0) as u32,
                column: mlirLocationFileLineColRangeGetStartColumn(raw).max(0) as u32,
            });
        }
        if mlirLocationIsAName(raw) {
            return resolve(mlirLocationNameGetChildLoc(raw));
        }
        if mlirLocationIsACallSite(raw) {
            return resolve(mlirLocationCallSiteGetCaller(raw));
        }
        if mlirLocationIsAFused(raw) {
            let count = mlirLocationFusedGetNumLocations(raw) as usize;
            let mut members = vec![
                MlirLocation {
                    ptr: std::ptr::null()
                };
                count
            ];
            mlirLocationFusedGetLocations(raw, members.as_mut_ptr());
            return members.into_iter().find_map(resolve);
        }
    }
    None
}

use mlir_sys::mlirIdentifierStr;
