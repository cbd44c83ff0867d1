//! Evaluation of model generations: match statistics, SPRT, Bradley-Terry ratings and plots.

pub mod plot;
pub mod rating;
