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
      '$name Builder\\Namespace_\\string'                                           => 'vendor/ezsystems/ezpublish-kernel/eZ/Publish/Core/Base/Container/string.php',
      'Behat\\BridgeBundle\\Console\\TypeUserLanguageConverter'                     => 'vendor/behat/bridgebundle/src/Console/TypeUserLanguageConverter.php',
      'Behat\\BridgeBundle\\Trash\\LimitationBundleVisitor'                         => 'vendor/behat/bridgebundle/src/Trash/LimitationBundleVisitor.php',
      'Behat\\BridgeBundle\\User\\DebugFormConverter'                               => 'vendor/behat/bridgebundle/src/User/DebugFormConverter.php',
      'Behat\\ConfigBundle\\Core\\CacheConsoleState'                                => 'vendor/behat/configbundle/src/Core/CacheConsoleState.php',
      'Behat\\ConfigBundle\\Filesystem\\StorageSerializerService'                   => 'vendor/behat/configbundle/src/Filesystem/StorageSerializerService.php',
      'Behat\\ConfigBundle\\Handler\\TemplateTranslationProvider'                   => 'vendor/behat/configbundle/src/Handler/TemplateTranslationProvider.php',
      'Behat\\ConfigBundle\\Io\\FieldImageVisitor'                                  => 'vendor/behat/configbundle/src/Io/FieldImageVisitor.php',
      'Behat\\ConfigBundle\\Relation\\FormQueryLimitationProvider'                  => 'vendor/behat/configbundle/src/Relation/FormQueryLimitationProvider.php',
      'Behat\\ConfigBundle\\Relation\\GatewayLog'                                   => 'vendor/behat/configbundle/src/Relation/GatewayLog.php',
      'Behat\\Config\\Kernel\\VersionFilesystemService'                             => 'vendor/behat/config/src/Kernel/VersionFilesystemService.php',
      'Behat\\Config\\Location\\ContentStorageConverter'                            => 'vendor/behat/config/src/Location/ContentStorageConverter.php',
      'Behat\\Config\\Persistence\\ValidatorLogConverter'                           => 'vendor/behat/config/src/Persistence/ValidatorLogConverter.php',
      'Behat\\Config\\Query\\UserLimitationException'                               => 'vendor/behat/config/src/Query/UserLimitationException.php',
      'Behat\\Config\\Routing\\GatewayMapperVisitor'                                => 'vendor/behat/config/src/Routing/GatewayMapperVisitor.php',
      'Behat\\Config\\Section\\CacheBundleFactory'                                  => 'vendor/behat/config/src/Section/CacheBundleFactory.php',
      'Behat\\Config\\Validator\\ConsoleTranslationTest'                            => 'vendor/behat/config/src/Validator/ConsoleTranslationTest.php',
      'Behat\\Debug\\Bridge\\TranslationCoreBuilder'                                => 'vendor/behat/debug/src/Bridge/TranslationCoreBuilder.php',
      'Behat\\Debug\\Query\\SecurityFieldFactory'                                   => 'vendor/behat/debug/src/Query/SecurityFieldFactory.php',
      'Behat\\Debug\\Role\\RelationSecurityConverter'                               => 'vendor/behat/debug/src/Role/RelationSecurityConverter.php',
      'Behat\\Debug\\State\\StateSearchTest'                                        => 'vendor/behat/debug/src/State/StateSearchTest.php',
      'Behat\\ImageComponent\\Bridge\\TypeSearchDraftBuilder'                       => 'vendor/behat/imagecomponent/src/Bridge/TypeSearchDraftBuilder.php',
      'Behat\\ImageComponent\\Cache\\KernelSecurityFactory'                         => 'vendor/behat/imagecomponent/src/Cache/KernelSecurityFactory.php',
      'Behat\\ImageComponent\\Content\\ConfigRoleTrait'                             => 'vendor/behat/imagecomponent/src/Content/ConfigRoleTrait.php',
      'Behat\\ImageComponent\\Field\\ConsoleValidatorRoleService'                   => 'vendor/behat/imagecomponent/src/Field/ConsoleValidatorRoleService.php',
      'Behat\\ImageComponent\\Handler\\MapperObjectFactory'                         => 'vendor/behat/imagecomponent/src/Handler/MapperObjectFactory.php',
      'Behat\\ImageComponent\\Language\\SessionDebugSerializer'                     => 'vendor/behat/imagecomponent/src/Language/SessionDebugSerializer.php',
      'Behat\\ImageComponent\\Type\\MapperPersistenceVisitor'                       => 'vendor/behat/imagecomponent/src/Type/MapperPersistenceVisitor.php',
      'ezpUpdateVersionUrlBundle'                                                   => 'update/common/scripts/versionurlbundle.php',
    );

?>
