//! toscana reads TOSCA service templates and translates them into what other tools run.
pub mod back;
pub mod cli;
pub mod diag;
pub mod front;
pub mod ir;
pub mod limits;
pub mod model;
pub mod pipeline;
pub mod resolve;
pub mod source;
pub mod yaml;
