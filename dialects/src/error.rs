/// Errors of the dialect crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The generated IRDL module did not parse, verify or load.
    #[error("cannot load the apipe IRDL dialect: {0}")]
    Irdl(&'static str),
}
