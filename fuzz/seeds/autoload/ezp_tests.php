<?php
/**
 * Autoloader definition for eZ Publish Kernel files.
 *
 * @copyright Copyright (C) eZ Systems AS. All rights reserved.
 * @license For full copyright and license information view LICENSE file distributed with this source code.
 * @version //autogentag//
 * @package kernel
 *
 */

return array(
      '$name Builder\\Namespace_\\string'                  => 'tests/toolkit/mocks/$name builder\\namespace_\\string.php',
      'Knp\\ValueBundle\\Filesystem\\ConfigTypeVisitor'    => 'tests/toolkit/mocks/knp\\valuebundle\\filesystem\\configtypevisitor.php',
      'Stash\\EventBundle\\Relation\\ValidatorRoutingTest' => 'tests/toolkit/mocks/stash\\eventbundle\\relation\\validatorroutingtest.php',
      'ezpTestAliasDraft'                                  => 'tests/toolkit/aliasdraft.php',
      'ezpTestAliasPersistenceProvider'                    => 'tests/toolkit/aliaspersistenceprovider.php',
      'ezpTestBridgeTemplateListener'                      => 'tests/toolkit/bridgetemplatelistener.php',
      'ezpTestCacheAliasAliasFactory'                      => 'tests/toolkit/cachealiasaliasfactory.php',
      'ezpTestCacheFormIoProvider'                         => 'tests/toolkit/cacheformioprovider.php',
      'ezpTestCacheGatewayException'                       => 'tests/toolkit/cachegatewayexception.php',
      'ezpTestCacheSectionListener'                        => 'tests/toolkit/cachesectionlistener.php',
      'ezpTestConsoleFormTypeBuilder'                      => 'tests/toolkit/consoleformtypebuilder.php',
      'ezpTestContentRoleService'                          => 'tests/toolkit/contentroleservice.php',
      'ezpTestContentUrlDebugBuilder'                      => 'tests/toolkit/contenturldebugbuilder.php',
      'ezpTestDebugEventValueTest'                         => 'tests/toolkit/debugeventvaluetest.php',
      'ezpTestDebugLogProvider'                            => 'tests/toolkit/debuglogprovider.php',
      'ezpTestDebugPolicySessionService'                   => 'tests/toolkit/debugpolicysessionservice.php',
      'ezpTestEventSectionProvider'                        => 'tests/toolkit/eventsectionprovider.php',
      'ezpTestEventSecurityCoreConverter'                  => 'tests/toolkit/eventsecuritycoreconverter.php',
      'ezpTestFieldHandlerListener'                        => 'tests/toolkit/fieldhandlerlistener.php',
      'ezpTestFieldLocationSearchService'                  => 'tests/toolkit/fieldlocationsearchservice.php',
      'ezpTestFilesystemConfigObjectTrait'                 => 'tests/toolkit/filesystemconfigobjecttrait.php',
      'ezpTestFilesystemUrlBuilder'                        => 'tests/toolkit/filesystemurlbuilder.php',
      'ezpTestGatewayGatewayCacheVisitor'                  => 'tests/toolkit/gatewaygatewaycachevisitor.php',
      'ezpTestHandlerSecurityProvider'                     => 'tests/toolkit/handlersecurityprovider.php',
      'ezpTestIoRelationConsoleException'                  => 'tests/toolkit/iorelationconsoleexception.php',
      'ezpTestLimitationFieldBuilder'                      => 'tests/toolkit/limitationfieldbuilder.php',
      'ezpTestLocationHandlerContentService'               => 'tests/toolkit/locationhandlercontentservice.php',
      'ezpTestLocationLocationPersistenceException'        => 'tests/toolkit/locationlocationpersistenceexception.php',
      'ezpTestValueFilesystemVisitor'                      => 'tests/toolkit/valuefilesystemvisitor.php',
    );

?>
