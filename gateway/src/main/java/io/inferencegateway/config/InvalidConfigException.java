package io.inferencegateway.config;

/** A configuration that cannot be used; the message names the offending path. */
public class InvalidConfigException extends Exception {

    public InvalidConfigException(String message) {
        super(message);
    }
}
