package io.inferencegateway.scheduling.framework;

/** A plugin's parameters cannot be used; the message names the parameter's path in the config. */
public class InvalidPluginException extends Exception {

    public InvalidPluginException(String message) {
        super(message);
    }
}
