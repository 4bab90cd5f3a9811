//! Search over partial paths, guided or pruned by predicates that come
//! from outside (`true` = "incompletable"):
//!
//! - [`predicates`]: the hand-written baseline and Stevens' π°;
//! - [`astar`]: Stevens' Algorithm 1 (A* with pruning or sorting).

pub mod astar;
pub mod predicates;
