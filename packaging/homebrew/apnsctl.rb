# Homebrew formula for apnsctl, built from the release tag's source archive. The release workflow attaches a
# copy with this tag's url and sha256 filled in (scripts/formula.sh); the macOS workflow installs it from a
# local tap with url pointing at a git archive of the checkout, and runs brew test.
class Apnsctl < Formula
  desc "Test and send Apple push notifications (APNs over HTTP/2) from the shell"
  homepage "https://github.com/apnsctl/apnsctl"
  url "https://github.com/apnsctl/apnsctl/archive/refs/tags/v0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "Apache-2.0"
  head "https://github.com/apnsctl/apnsctl.git", branch: "main"

  depends_on xcode: ["16.0", :build] # Swift 6
  depends_on "pkgconf" => :build
  depends_on "libnghttp2"
  depends_on "libplist"
  depends_on "libzip"
  depends_on "openssl@3"

  uses_from_macos "swift" => :build
  uses_from_macos "sqlite"

  def install
    # Not `make deps`: Homebrew has installed the dependencies above, and pkg-config finds them.
    system "swift", "build", "--disable-sandbox", "-c", "release"
    bin.install ".build/release/apnsctl"

    # One man page per command, from the command definitions, as `make install` writes them (scripts/install.sh
    # also writes completions into the scratch prefix; Homebrew's own places come from the line below).
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "generate-manual"
    ENV["GENERATE_MANUAL"] = (buildpath/".build/release/generate-manual").to_s
    system "scripts/install.sh", "install", bin/"apnsctl", buildpath/"staged"
    man1.install Dir["staged/share/man/man1/*.1"]

    generate_completions_from_executable(bin/"apnsctl", "--generate-completion-script")
  end

  test do
    assert_match "apnsctl #{version} ", shell_output("#{bin}/apnsctl --version")
    (testpath/"good.json").write '{"aps":{"alert":"Your order has shipped"}}'
    system bin/"apnsctl", "validate", testpath/"good.json"
    (testpath/"bad.json").write '{"aps":{"alert":"Hi","badge":"3"}}'
    shell_output("#{bin}/apnsctl validate #{testpath}/bad.json 2>&1", 65)
  end
end
