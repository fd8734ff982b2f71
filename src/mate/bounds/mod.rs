//! A sound lower bound on the moves the side to move needs to mate.
//!
//! At the end of a mating turn the enemy king (which does not move during our
//! turn) is in check, and every square next to it is either held by one of
//! its own pieces or attacked by us. Under the Italian rules one more escape
//! is closed: a king step that would uncover a check on our king is not
//! allowed either, so flights where that is possible are excused.
//!
//! Each target square (the king's square and its open flights) must be
//! attacked by one of our pieces at the end. A piece that attacks a target at
//! the end has made at least as many moves as it needs on an empty board to
//! reach a square attacking it (its real path is also a path on the empty
//! board; blockers only make it longer). A piece's moves serve all the targets
//! it covers, and different pieces' moves are different moves, so the turn
//! needs at least
//!     min over assignments of targets to pieces of
//!     sum over pieces of (max over its targets of its distance),
//! less one if we may still castle (castling moves the rook too). Nothing else
//! is assumed: enemy pieces only disappear during our turn (so their squares
//! now are a superset of their squares at the end), and squares our pieces
//! stand on are flights like empty ones.
//!
//! One concept a file: [`reach`] (empty-board distance tables),
//! [`targets`] (the squares to cover and the excused flights), [`cache`]
//! (each piece's cover and options per target set, kept between calls),
//! [`cover`] (the least-cost cover search), [`lower`] (the bound of one
//! position), [`children`] (the bounds of a node's children from what they
//! share with it), [`last_moves`] (the filters of the last two moves) and
//! [`pictures`] (the root's proof of "no mate" with the real ways of pawns
//! and knights and the enemy pieces as obstacles) with [`paths`] (one
//! piece's ways there), [`movers`] (the sets of our pieces whose
//! pictures fit, which restrict the search's passes), [`squares`] (the
//! root's pictures again with our pieces' end squares, the whole board
//! asked of the rules core by [`final_board`] where they name it),
//! [`order`] (the order of the moves: a line to the whole mating boards
//! the pictures name, a mate found, or none, a scene without a picture)
//! and [`node_pictures`] (the pictures as a bound at every node of a long
//! turn's search).
//! Only what the mate finder and the evaluation use is visible outside.

mod cache;
mod children;
mod cover;
mod final_board;
mod last_moves;
mod lower;
mod movers;
mod node_pictures;
mod order;
mod paths;
mod pictures;
mod reach;
#[cfg(test)]
mod reference;
mod squares;
mod targets;
#[cfg(test)]
mod tests;

pub(crate) use cache::BoundCache;
pub(crate) use children::ChildBounds;
pub(crate) use last_moves::{LastOne, LastTwo};
#[cfg(test)]
use lower::lower_bound_with;
pub(crate) use lower::{lower_bound, lower_bound_movable, may_mate};
pub(crate) use movers::Movers;
pub(crate) use node_pictures::NodePictures;
pub(crate) use pictures::{Drawn, Pictured, draw_pictures};
#[cfg(test)]
use pictures::{mate_by_pictures, no_mate_by_pictures};
pub(crate) use reach::attack_distance;
