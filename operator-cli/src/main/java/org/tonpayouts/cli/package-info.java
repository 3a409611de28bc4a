/**
 * The operator's commands, {@code java -jar payouts-cli.jar}: streams-app's admin API, subwallet
 * addresses, the topics and the configuration reference. Deployed beside the apps, so it depends on
 * none of the local stack (OperatorCliDependenciesTest); the local launcher carries the same commands.
 */
package org.tonpayouts.cli;
