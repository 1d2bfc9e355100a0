package io.inferencegateway.lab.cli;

import picocli.CommandLine.IVersionProvider;

final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return new String[] {"inference-gateway " + (v == null ? "dev" : v)};
    }
}
