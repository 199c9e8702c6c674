pub mod direct;
