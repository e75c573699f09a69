//! toscana reads TOSCA service templates and translates them into what other tools run.
pub mod diag;
pub mod ir;
pub mod limits;
pub mod source;
pub mod yaml;
