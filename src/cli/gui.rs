//! `crescendo gui`: serve the local web GUI (see `crescendo::gui`).

use super::CliResult;

#[derive(clap::Args, Debug)]
pub struct GuiArgs {
    /// The port to listen on (default: a free one, printed).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// The address to listen on; loopback unless you say otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the system browser on the page.
    #[arg(long)]
    pub open: bool,
}

pub fn run(args: &GuiArgs) -> CliResult {
    crescendo::gui::run(&crescendo::gui::Config {
        host: args.host.clone(),
        port: args.port,
        open: args.open,
    })
}
